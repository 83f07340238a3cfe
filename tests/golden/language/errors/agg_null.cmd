dtrace -xerrtags -s agg_null.d
