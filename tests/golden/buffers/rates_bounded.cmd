dtrace -q -x statusrate=20s -x cleanrate=10000hz -n 'BEGIN { printf("started\n"); exit(0); }'
