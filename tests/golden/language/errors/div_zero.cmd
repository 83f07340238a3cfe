dtrace -xerrtags -s div_zero.d
