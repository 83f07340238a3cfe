dtrace -q -x droptags -n 'BEGIN { a = speculation(); b = speculation(); exit(0); }'
