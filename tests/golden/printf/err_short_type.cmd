dtrace -xerrtags -n 'BEGIN { printf("%hd\n", "s"); }'
