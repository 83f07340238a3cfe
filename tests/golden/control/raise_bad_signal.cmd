dtrace -wq -n 'BEGIN { raise(99999); }' -n 'BEGIN { exit(0); }'
