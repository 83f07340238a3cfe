dtrace -xerrtags -s printf_no_format.d
