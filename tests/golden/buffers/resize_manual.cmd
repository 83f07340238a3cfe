dtrace -q -x bufresize=manual -x bufpolicy=switch -n 'BEGIN { printf("manual\n"); exit(0); }'
