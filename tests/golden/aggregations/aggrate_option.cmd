dtrace -q -x aggrate=10ms -n 'BEGIN { @a = count(); exit(0); }'
