dtrace -xerrtags -s llquantize_factor_small.d
