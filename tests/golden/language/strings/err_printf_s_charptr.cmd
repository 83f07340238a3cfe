dtrace -xerrtags -s err_printf_s_charptr.d
