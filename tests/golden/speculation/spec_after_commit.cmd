dtrace -xerrtags -n 'BEGIN { commit(1); speculate(1); }'
