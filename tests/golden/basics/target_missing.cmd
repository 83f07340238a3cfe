dtrace -c /nonexistent/prog -n 'BEGIN { }'
