dtrace -x noplugins -n 'BEGIN { trace(fds[0].fi_pathname); }'
