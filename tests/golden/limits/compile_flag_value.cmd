dtrace -x errtags=yes -n 'BEGIN { exit(0); }'
