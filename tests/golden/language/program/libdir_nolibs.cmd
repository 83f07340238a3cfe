dtrace -q -x nolibs -L $DIR/lib -n 'BEGIN { printf("%d\n", answer); exit(0); }'
