dtrace -q -b 64 -n 'BEGIN { printf("%s\n", "this record does not fit in 64 bytes of buffer at all, so it is dropped"); exit(0); }'
