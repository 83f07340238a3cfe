dtrace -x plugins=fbt -q -n 'fbt::do_sys_openat2:return /pid == $target/ { @[arg1 < 0 ? "fail" : "ok"] = count(); }' -c 'cat /nonexistent-1 /nonexistent-2 /dev/null'
