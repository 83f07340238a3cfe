dtrace -x noplugins -x plugin=$BUILD/tests/plugin/stackprov/stackprov.so -x stackframes=3 -x stackindent=4 -s stack_options.d
