dtrace -q -x rawbytes -x strsize=8 -n 'BEGIN { trace("abc"); trace(7); exit(0); }'
