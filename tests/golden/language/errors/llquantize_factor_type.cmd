dtrace -xerrtags -s llquantize_factor_type.d
