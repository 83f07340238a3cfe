dtrace -xerrtags -n 'BEGIN { printf("%d %d\n", 1); }'
