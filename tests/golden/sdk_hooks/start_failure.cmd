sh -c 'HOOKPROV_FAIL_START=1 dtrace -x noplugins -x plugin=$BUILD/tests/plugin/hookprov/hookprov.so -qn "BEGIN { printf(\"begun\\n\"); } END { printf(\"ended\\n\"); } hook:::fire { }"'
