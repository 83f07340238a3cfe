dtrace -xerrtags -s err_assign.d
