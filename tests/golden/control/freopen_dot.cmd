dtrace -xerrtags -w -n 'BEGIN { freopen("."); }'
