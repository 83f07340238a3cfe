dtrace -x plugins=fbt -q -n 'fbt::do_sys_openat2:entry /pid == $target && args[2]->flags == 0x8000/ { print(*args[2]); printf("\n"); }' -c 'cat /etc/hostname'
