dtrace -x noplugins -x plugins=nosuchplugin -qn 'BEGIN { exit(0); }'
