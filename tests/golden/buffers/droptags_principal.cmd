dtrace -b 96 -x switchrate=100hz -x droptags -s ten_records.d
