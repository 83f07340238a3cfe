sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl.zip" -n "diag:::events { @[stringof(copyinstr(arg0))] = count(); }"'
