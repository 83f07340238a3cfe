dtrace -wq -n 'BEGIN { raise(2); }' -n 'END { printf("end after SIGINT\n"); }'
