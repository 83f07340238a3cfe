dtrace -xerrtags -s err_printf_d.d
