dtrace -q -c 'sleep 0.2' -n 'BEGIN { printf("[%A] [%-6A|]\n", (uint64_t)1, (char *)2); exit(0); }'
