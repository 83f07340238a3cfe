dtrace -x stackframes=4294967296 -n 'BEGIN { exit(0); }'
