dtrace -xerrtags -s llquantize_magnitude_range.d
