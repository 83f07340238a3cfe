sh -c 'dtrace -qE "$ETW_FIXTURES/metadata.etl" -n "etw:7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d::7 { trace(args[6]); }"'
