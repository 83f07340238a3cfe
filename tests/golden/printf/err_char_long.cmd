dtrace -xerrtags -n 'BEGIN { printf("%c\n", (long)65); }'
