dtrace -xerrtags -s err_proto_void_not_sole.d
