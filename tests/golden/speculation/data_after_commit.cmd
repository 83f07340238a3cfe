dtrace -xerrtags -n 'BEGIN { commit(1); trace(1); }'
