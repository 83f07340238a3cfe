dtrace -xerrtags -n 'BEGIN { printf("%d\n", "str"); }'
