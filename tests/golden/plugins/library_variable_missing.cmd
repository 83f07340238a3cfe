dtrace -x noplugins -n 'BEGIN { trace(curpsinfo->pr_pid); }'
