dtrace -C -s cpp_error_directive.d
