dtrace -xerrtags -n 'BEGIN { printf("%*d\n", "w", 1); }'
