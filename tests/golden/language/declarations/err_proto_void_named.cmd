dtrace -xerrtags -s err_proto_void_named.d
