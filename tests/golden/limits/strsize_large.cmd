dtrace -q -x strsize=3g -n 'BEGIN { printf("%d\n", strlen("abcdef")); exit(0); }'
