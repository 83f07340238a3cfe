dtrace -xerrtags -n 'BEGIN { @a = count(); normalize(@a); }'
