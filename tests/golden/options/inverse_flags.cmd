dtrace -q -x kdefs -x temporal=yes -x udefs -n 'BEGIN { printf("ok\n"); exit(0); }'
