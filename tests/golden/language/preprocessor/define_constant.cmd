dtrace -C -s define_constant.d
