dtrace -n 'BEGIN { system("echo hello"); exit(0); }'
