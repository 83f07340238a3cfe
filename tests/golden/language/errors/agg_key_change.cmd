dtrace -xerrtags -s agg_key_change.d
