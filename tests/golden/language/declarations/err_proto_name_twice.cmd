dtrace -xerrtags -s err_proto_name_twice.d
