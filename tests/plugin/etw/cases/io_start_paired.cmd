sh -c 'dtrace -qE "$ETW_FIXTURES/late_names.etl" -s io_start_paired.d'
