dtrace -q -x strsize=16385 -n 'BEGIN { s = "a global string at strsize 16385"; exit(0); }'
