dtrace -xerrtags -n 'BEGIN { @a = count(); speculate(1); }'
