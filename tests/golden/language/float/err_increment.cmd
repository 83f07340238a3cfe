dtrace -xerrtags -s err_increment.d
