dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov.so -q -n 'BEGIN { trace(`hook_nothing); }'
