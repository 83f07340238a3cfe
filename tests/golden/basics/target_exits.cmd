dtrace -q -c 'sleep 0.2' -n 'BEGIN { printf("target set: %d\n", $target > 0); }' -n 'END { printf("ended with the target\n"); }'
