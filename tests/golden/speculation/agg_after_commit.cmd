dtrace -xerrtags -n 'BEGIN { commit(1); @a = count(); }'
