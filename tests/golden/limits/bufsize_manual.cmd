dtrace -x bufresize=manual -x bufsize=100t -n 'BEGIN { exit(0); }'
