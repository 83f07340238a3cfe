dtrace -x plugins=fbt -q -n 'fbt::do_sys_openat2:entry /pid == $target && (int)arg0 == -77/ { printf("%s %d\n", copyinstr(arg1 + 13), *(char *)copyin(arg1 + 13, 1)); }' -c $DIR/open_then_overwrite.py
