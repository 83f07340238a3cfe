sh -c 'dtrace -lv -n "diag:::events" -n "etw:e13c0d23-ccbc-4e12-931b-d9cc2eee27e4::10" -n "fixture.provider:::events" -E "$ETW_FIXTURES/replay.etl"'
