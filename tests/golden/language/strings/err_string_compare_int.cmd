dtrace -xerrtags -s err_string_compare_int.d
