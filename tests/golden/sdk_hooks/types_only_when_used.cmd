dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov.so -q -n 'BEGIN { printf("%d\n", sizeof(((struct hook_point *)0)->hp_next->hp_x)); exit(0); }'
