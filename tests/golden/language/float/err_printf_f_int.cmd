dtrace -xerrtags -s err_printf_f_int.d
