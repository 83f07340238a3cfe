dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov.so -q -n 'hook:::fire { }' -c 'printenv HOOKPROV_MARK'
