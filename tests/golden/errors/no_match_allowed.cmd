dtrace -qZ -n 'nosuch:::probe { exit(0); }' -n 'BEGIN { printf("ran\n"); exit(0); }'
