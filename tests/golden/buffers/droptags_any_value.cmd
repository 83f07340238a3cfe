dtrace -q -x droptags=yes -n 'BEGIN { a = speculation(); b = speculation(); exit(0); }'
