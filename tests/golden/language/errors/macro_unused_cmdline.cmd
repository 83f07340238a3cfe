dtrace -xerrtags -n 'BEGIN { exit(0); }' extra
