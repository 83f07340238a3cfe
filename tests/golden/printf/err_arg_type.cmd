dtrace -xerrtags -n 'BEGIN { printf("%s\n", 3); }'
