dtrace -xerrtags -s print_aggregation.d
