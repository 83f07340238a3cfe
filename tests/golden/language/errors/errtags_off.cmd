dtrace -s errtags_off.d
