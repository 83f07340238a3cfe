dtrace -x bufsize=lots -n BEGIN
