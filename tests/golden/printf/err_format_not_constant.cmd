dtrace -xerrtags -n 'BEGIN { x = "%d"; printf(x, 1); }'
