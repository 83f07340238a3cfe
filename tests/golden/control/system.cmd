dtrace -wq -n 'BEGIN { printf("before\n"); system("echo %s %d", "from system", 42); printf("after\n"); exit(0); }'
