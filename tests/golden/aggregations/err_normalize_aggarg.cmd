dtrace -xerrtags -n 'BEGIN { @a = count(); normalize(timestamp, 2); }'
