sh -c 'dtrace -l -n "diag:::" -E "$ETW_FIXTURES/replay.etl"'
