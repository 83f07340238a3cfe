dtrace -h -n BEGIN
