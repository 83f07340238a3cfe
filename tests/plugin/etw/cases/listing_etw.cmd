sh -c 'dtrace -l -n "etw:::" -E "$ETW_FIXTURES/replay.etl"'
