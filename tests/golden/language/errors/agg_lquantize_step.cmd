dtrace -xerrtags -s agg_lquantize_step.d
