dtrace -xerrtags -s err_string_lognot.d
