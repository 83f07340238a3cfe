sh -c 'dtrace -qE "$ETW_FIXTURES/replay.etl" -x bufpolicy=ring -b 128 -n "diag:::events { printf(\"%d\\n\", ++n); }"'
