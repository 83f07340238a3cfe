dtrace -xerrtags -s err_string_negate.d
