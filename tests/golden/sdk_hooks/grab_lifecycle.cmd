bash -c 'sleep 0.3 & dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov.so -q -n "hook:::fire { }" -p $!'
