dtrace -xerrtags -s err_string_plus_string.d
