dtrace -x noplugins -x plugin=$BUILD/tests/plugin/stackprov/stackprov.so -x oformat=json -q -s agg_stack.d
