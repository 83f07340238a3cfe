dtrace -x noplugins -x plugin=$BUILD/tests/plugin/stackprov/stackprov.so -q -s sort_user_symbol_keys.d
