dtrace -x noplugins -x plugin=$BUILD/tests/plugin/stackprov/stackprov.so -q -s printa_module_keys.d
