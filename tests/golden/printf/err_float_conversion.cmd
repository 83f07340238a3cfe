dtrace -xerrtags -n 'BEGIN { printf("%f\n", 1); }'
