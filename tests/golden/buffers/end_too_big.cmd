dtrace -q -x bufpolicy=fill -b 16 -n 'END { printf("%d", 1); }'
