dtrace -x noplugins -x plugin=$BUILD/tests/plugin/stackprov/stackprov.so -s agg_stack.d
