dtrace -xerrtags -n 'BEGIN { printf("%d\n", 1, 2); }'
