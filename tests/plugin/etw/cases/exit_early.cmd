sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl" -s exit_early.d'
