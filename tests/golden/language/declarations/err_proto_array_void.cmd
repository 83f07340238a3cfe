dtrace -xerrtags -s err_proto_array_void.d
