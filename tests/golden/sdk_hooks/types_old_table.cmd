dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov_old.so -q -n 'hook:::fire /pid == 1/ { }' -n 'BEGIN { trace(sizeof(struct hook_point)); exit(0); }' -c true
