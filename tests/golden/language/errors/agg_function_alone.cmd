dtrace -xerrtags -s agg_function_alone.d
