dtrace -xerrtags -s err_proto_void_varargs.d
