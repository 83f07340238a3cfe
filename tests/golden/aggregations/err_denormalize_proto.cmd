dtrace -xerrtags -n 'BEGIN { @a = count(); denormalize(@a, 2); }'
