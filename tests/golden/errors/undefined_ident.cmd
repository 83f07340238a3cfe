dtrace -xerrtags -n 'BEGIN { trace(nosuchvar); }'
