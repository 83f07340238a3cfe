sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl" -s etw_probes.d'
