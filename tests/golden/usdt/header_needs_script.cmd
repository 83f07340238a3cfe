dtrace -h
