sh -c 'DTRACE_PLUGIN_PATH=$BUILD/sdk/examples/skeleton dtrace -x plugins=etw -n "skeleton:::beat {}"'
