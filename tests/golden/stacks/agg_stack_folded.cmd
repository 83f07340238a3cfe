dtrace -x noplugins -x plugin=$BUILD/tests/plugin/stackprov/stackprov.so -x stackformat=folded -q -s agg_stack.d
