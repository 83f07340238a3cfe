dtrace -q -n 'BEGIN { raise(9); }' -n 'BEGIN { stop(); }'
