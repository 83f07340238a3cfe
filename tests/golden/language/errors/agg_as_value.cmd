dtrace -xerrtags -s agg_as_value.d
