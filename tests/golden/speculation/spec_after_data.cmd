dtrace -xerrtags -n 'BEGIN { printf("x"); speculate(1); }'
