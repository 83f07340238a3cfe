sh -c 'dtrace -qE "$ETW_FIXTURES/intervals.etl" -s lso_sizes.d'
