dtrace -xerrtags -s proto_arg.d
