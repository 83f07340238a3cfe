dtrace -xerrtags -s err_string_times.d
