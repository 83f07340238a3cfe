dtrace -xerrtags -s err_string_index.d
