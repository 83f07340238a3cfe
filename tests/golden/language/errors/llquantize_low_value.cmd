dtrace -xerrtags -s llquantize_low_value.d
