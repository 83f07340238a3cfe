dtrace -xerrtags -s err_string_bitand.d
