dtrace -C -qn 'BEGIN { printf("%d\n", __LINE__ > 0); exit(0); }'
