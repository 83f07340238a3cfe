dtrace -k -n BEGIN
