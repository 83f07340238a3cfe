dtrace -xerrtags -s int_bad_octal_digit.d
