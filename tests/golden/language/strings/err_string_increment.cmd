dtrace -xerrtags -s err_string_increment.d
