sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl" -s lost_and_stacks.d'
