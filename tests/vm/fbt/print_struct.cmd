dtrace -x plugins=fbt -q -n 'fbt::do_sys_openat2:entry /pid == $target && (args[2]->flags & 0x40)/ { print(*args[2]); printf("\n"); }' -c 'dd if=/dev/zero of=/dev/null count=1 status=none'
