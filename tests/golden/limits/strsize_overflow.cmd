dtrace -x strsize=4g -n 'BEGIN { exit(0); }'
