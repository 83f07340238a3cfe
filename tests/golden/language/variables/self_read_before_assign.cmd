dtrace -xerrtags -s self_read_before_assign.d
