dtrace -xerrtags -s err_add.d
