dtrace -p 2 -n 'BEGIN { }'
