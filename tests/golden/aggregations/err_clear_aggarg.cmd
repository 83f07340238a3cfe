dtrace -xerrtags -n 'BEGIN { @a = count(); clear(1); }'
