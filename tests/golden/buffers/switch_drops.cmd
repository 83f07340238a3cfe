dtrace -b 96 -x switchrate=100hz -s ten_records.d
