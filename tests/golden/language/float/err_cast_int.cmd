dtrace -xerrtags -s err_cast_int.d
