dtrace -qn 'BEGIN { exit(7); }'
