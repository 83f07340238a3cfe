dtrace -xerrtags -s if_scalar.d
