dtrace -xerrtags -s read_before_assign.d
