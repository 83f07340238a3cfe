dtrace -xerrtags -n 'BEGIN { setopt(1); }'
