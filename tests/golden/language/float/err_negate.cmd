dtrace -xerrtags -s err_negate.d
