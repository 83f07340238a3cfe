dtrace -xerrtags -n 'BEGIN { speculate(1); @a = count(); }'
