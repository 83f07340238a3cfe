dtrace -w -n 'BEGIN { trace(1); system("echo from system"); trace(2); } BEGIN { trace(3); system("printf \"no newline\""); } BEGIN { printf("%s\n", "last"); exit(0); }'
