dtrace -xerrtags -s int_too_big.d
