dtrace -q -x bufpolicy=fill -x aggsize=8 -n 'BEGIN { @ = count(); } END { printf("%d %d\n", 1, 2); }'
