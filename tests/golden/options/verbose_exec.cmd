dtrace -v -n 'BEGIN { exit(0); }'
