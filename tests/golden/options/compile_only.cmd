dtrace -e -n 'BEGIN { trace("not run"); }'
