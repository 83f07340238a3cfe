dtrace -c /etc/passwd -n 'BEGIN { }'
