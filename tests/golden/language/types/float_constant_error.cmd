dtrace -xerrtags -s float_constant_error.d
