dtrace -xerrtags -s printf_bad_conversion.d
