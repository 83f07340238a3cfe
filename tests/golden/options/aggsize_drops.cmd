dtrace -q -x aggsize=160 -x droptags -n 'BEGIN { i = 0; } tick-1ms /i < 30/ { @[i] = count(); i++; } tick-1ms /i == 30/ { exit(0); }'
