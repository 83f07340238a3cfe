sh -c 'dtrace -qwE "$ETW_FIXTURES/replay.etl" -n "diag:::events { stop(); }"'
