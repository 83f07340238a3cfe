dtrace -xerrtags -n 'BEGIN { @a[1] = count(); @b["x"] = count(); printa(@a, @b); }'
