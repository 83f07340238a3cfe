dtrace -xerrtags -s proto_len.d
