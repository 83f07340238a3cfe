dtrace -C -s include_d_declarations.d
