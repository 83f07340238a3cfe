dtrace -l -i 2
