dtrace -q -x bufsize=100t -n 'BEGIN { printf("auto\n"); exit(0); }'
