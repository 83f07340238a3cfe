dtrace -q -x dynvarsize=512 -n 'BEGIN { i = 0; } tick-1ms /i < 40/ { self->a[i] = i; i++; } tick-1ms /i == 40/ { exit(0); }'
