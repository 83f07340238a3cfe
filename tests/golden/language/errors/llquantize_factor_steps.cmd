dtrace -xerrtags -s llquantize_factor_steps.d
