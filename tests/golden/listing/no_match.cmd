dtrace -l -n nosuch:::
