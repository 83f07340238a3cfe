dtrace -xerrtags -n 'BEGIN { commit(1); exit(0); }'
