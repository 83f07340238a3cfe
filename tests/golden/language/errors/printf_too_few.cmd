dtrace -xerrtags -s printf_too_few.d
