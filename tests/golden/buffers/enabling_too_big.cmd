dtrace -q -b 16 -n 'BEGIN { trace(1); }'
