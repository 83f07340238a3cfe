dtrace -F -n 'BEGIN { trace(1); } BEGIN { exit(0); } END { trace(2); }'
