dtrace -x quiet=yes -x flowindent=no -x destructive=0 -n 'BEGIN { trace(1); exit(0); }'
