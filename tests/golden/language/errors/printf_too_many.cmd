dtrace -xerrtags -s printf_too_many.d
