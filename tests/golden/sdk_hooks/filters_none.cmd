dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov.so -q -n 'hook:::fire /pid == 1/ { } hook:::fire /pid == 1 || pid == 2/ { }' -n 'BEGIN { exit(0); }'
