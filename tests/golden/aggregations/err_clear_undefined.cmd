dtrace -xerrtags -n 'BEGIN { clear(@a); }'
