dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov.so -l -i 17
