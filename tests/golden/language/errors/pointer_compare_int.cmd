dtrace -xerrtags -s pointer_compare_int.d
