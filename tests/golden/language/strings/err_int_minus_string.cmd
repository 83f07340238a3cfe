dtrace -xerrtags -s err_int_minus_string.d
