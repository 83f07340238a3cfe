sh -c 'dtrace -l -n ":::events" -E "$ETW_FIXTURES/replay.etl"'
