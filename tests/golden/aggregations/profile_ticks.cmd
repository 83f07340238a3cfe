dtrace -q -n 'tick-10ms { @n = count(); } tick-10ms /++i == 10/ { exit(0); }'
