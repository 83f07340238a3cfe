dtrace -q -L $DIR/broken/lib -n 'BEGIN { exit(0); }'
