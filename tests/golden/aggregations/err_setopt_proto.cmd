dtrace -xerrtags -n 'BEGIN { setopt("quiet", "1", "2"); }'
