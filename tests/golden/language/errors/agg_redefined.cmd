dtrace -xerrtags -s agg_redefined.d
