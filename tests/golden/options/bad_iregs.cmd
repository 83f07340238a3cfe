dtrace -q -x iregs=many -n 'BEGIN { exit(0); }'
