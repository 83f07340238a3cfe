dtrace -xerrtags -s agg_quantize_arg.d
