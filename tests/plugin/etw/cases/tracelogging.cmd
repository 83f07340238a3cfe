sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl" -s tracelogging.d'
