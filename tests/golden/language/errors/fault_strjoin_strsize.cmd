dtrace -x strsize=8 -s fault_strjoin_strsize.d
