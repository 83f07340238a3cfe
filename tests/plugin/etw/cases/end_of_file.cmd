sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl" -s end_of_file.d'
