dtrace -x strsize=8 -s strsize_truncates.d
