dtrace -xerrtags -s printf_wrong_type.d
