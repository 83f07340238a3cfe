sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl" -s provider_events.d'
