dtrace -xerrtags -s err_cast_to_float.d
