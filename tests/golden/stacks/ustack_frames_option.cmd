dtrace -x noplugins -x plugin=$BUILD/tests/plugin/stackprov/stackprov.so -x ustackframes=1 -x jstackframes=2 -s ustack_frames_option.d
