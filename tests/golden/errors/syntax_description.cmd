dtrace -n 'BEGIN { x = ; }'
