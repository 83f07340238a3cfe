dtrace -xerrtags -n 'BEGIN { printf("%2$d %1$d\n", 1, 2); }'
