dtrace -q -n 'BEGIN { copyout(0, 0, 0); }'
