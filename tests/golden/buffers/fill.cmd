dtrace -x bufpolicy=fill -b 128 -s ten_records.d
