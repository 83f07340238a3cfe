dtrace -q -n 'BEGIN { x = 5; s = "from the first"; }' -n 'BEGIN { printf("%d %s\n", x, s); exit(0); }'
