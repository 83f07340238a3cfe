dtrace -xerrtags -s unary_minus_string.d
