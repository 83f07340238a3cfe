dtrace -xerrtags -s llquantize_too_many_args.d
