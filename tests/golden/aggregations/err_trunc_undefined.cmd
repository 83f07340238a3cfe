dtrace -xerrtags -n 'BEGIN { trunc(@nothing, 5); }'
