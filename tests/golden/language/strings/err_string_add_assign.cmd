dtrace -xerrtags -s err_string_add_assign.d
