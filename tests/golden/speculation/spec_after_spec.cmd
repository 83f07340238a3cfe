dtrace -xerrtags -n 'BEGIN { speculate(1); speculate(2); }'
