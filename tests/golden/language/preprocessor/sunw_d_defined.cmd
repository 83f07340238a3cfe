dtrace -C -s sunw_d_defined.d
