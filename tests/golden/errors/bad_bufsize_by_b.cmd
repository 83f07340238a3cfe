dtrace -b 12q -n BEGIN
