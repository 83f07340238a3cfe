dtrace -q -x droptags -n 'BEGIN { x = *(int *)0; } ERROR { y = *(int *)8; } BEGIN { exit(0); }'
