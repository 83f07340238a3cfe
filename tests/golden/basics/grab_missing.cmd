dtrace -p 999999999 -n 'BEGIN { }'
