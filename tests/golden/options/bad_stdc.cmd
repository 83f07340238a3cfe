dtrace -X q -n 'BEGIN { exit(0); }'
