dtrace -xerrtags -s err_string_assign_int.d
