dtrace -q -x dynvarsize=512 -x droptags -n 'BEGIN { i = 0; } tick-1ms /i < 40/ { a[i] = i; i++; } tick-1ms /i == 40/ { exit(0); }'
