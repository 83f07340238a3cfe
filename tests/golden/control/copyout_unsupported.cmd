dtrace -wq -n 'BEGIN { copyoutstr("x", 0, 2); }'
