dtrace -xerrtags -n 'BEGIN { printf("%y\n", 1); }'
