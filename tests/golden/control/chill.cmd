dtrace -wq -n 'BEGIN { chill(1000); printf("chilled\n"); exit(0); }'
