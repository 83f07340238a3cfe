sh -c 'dtrace -qE "$ETW_FIXTURES/late_names.etl" -s late_file_names.d'
