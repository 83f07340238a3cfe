dtrace -wq -n 'BEGIN { chill(600000000); printf("not reached\n"); }' -n 'BEGIN { exit(0); }'
