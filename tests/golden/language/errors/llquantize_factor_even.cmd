dtrace -xerrtags -s llquantize_factor_even.d
