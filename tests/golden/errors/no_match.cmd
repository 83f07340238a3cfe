dtrace -n 'nosuch:::probe { exit(0); }'
