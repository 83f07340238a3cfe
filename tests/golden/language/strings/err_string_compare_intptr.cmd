dtrace -xerrtags -s err_string_compare_intptr.d
