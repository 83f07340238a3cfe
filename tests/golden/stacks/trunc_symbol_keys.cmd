dtrace -x noplugins -x plugin=$BUILD/tests/plugin/stackprov/stackprov.so -q -s trunc_symbol_keys.d
