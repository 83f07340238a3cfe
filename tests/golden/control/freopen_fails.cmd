dtrace -wq -n 'BEGIN { freopen("/nonexistent-dir/file"); printf("still here\n"); exit(0); }'
