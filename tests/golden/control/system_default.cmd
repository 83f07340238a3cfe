dtrace -w -n 'BEGIN { system("echo with probe line"); exit(0); }'
