dtrace -xerrtags -s llquantize_magnitude_plus_one.d
