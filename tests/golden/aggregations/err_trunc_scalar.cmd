dtrace -xerrtags -n 'BEGIN { @a = count(); trunc(@a, "ten"); }'
