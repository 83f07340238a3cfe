dtrace -xerrtags -s llquantize_steps_match.d
