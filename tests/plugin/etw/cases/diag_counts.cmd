sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl" -n "diag:::events { @[stringof(copyinstr(arg0))] = count(); }"'
