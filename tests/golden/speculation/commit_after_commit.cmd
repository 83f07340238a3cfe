dtrace -xerrtags -n 'BEGIN { commit(1); commit(2); }'
