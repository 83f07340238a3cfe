dtrace -xerrtags -s err_printf_lf_double.d
