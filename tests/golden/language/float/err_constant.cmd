dtrace -xerrtags -s err_constant.d
