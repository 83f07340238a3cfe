dtrace -x plugins=nosuchplugin -qn 'BEGIN { exit(0); }'
