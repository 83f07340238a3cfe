dtrace -x bufpolicy=ring -b 96 -s ten_records.d
