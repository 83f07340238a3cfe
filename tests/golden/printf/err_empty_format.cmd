dtrace -xerrtags -n 'BEGIN { printf(""); }'
