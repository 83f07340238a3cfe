dtrace -q -n 'BEGIN { trace(wstringof(0)); }' -n 'BEGIN { exit(0); }'
