dtrace -xerrtags -s llquantize_magnitude_too_big.d
