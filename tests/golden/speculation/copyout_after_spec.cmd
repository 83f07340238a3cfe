dtrace -xerrtags -w -n 'BEGIN { speculate(1); copyout(0, 0, 0); }'
