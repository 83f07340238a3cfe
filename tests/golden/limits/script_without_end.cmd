dtrace -s /dev/zero
