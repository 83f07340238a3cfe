dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov.so -q -n 'BEGIN { trace(sizeof(struct hook_nothing)); }'
