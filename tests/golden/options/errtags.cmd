dtrace -x errtags -n 'BEGIN { x = ; }'
