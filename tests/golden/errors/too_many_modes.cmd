dtrace -l -V
