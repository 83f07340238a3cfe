sh -c 'dtrace -qE "$ETW_FIXTURES/intervals.etl" -s trace_time_begin_end.d'
