dtrace -xerrtags -s trace_aggregation.d
