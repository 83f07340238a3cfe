dtrace -xerrtags -s err_sum.d
