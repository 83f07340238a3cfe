dtrace -xerrtags -n 'BEGIN { @a = count(); @a = sum(1); }'
