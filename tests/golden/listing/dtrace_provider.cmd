dtrace -l -P dtrace
