sh -c 'dtrace -x switchrate=10s -qE "$ETW_FIXTURES/intervals.etl" -s intervals.d'
