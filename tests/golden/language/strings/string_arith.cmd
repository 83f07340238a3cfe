dtrace -xerrtags -s string_arith.d
