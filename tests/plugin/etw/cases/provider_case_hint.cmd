sh -c 'dtrace -qn "Microsoft-Windows-DotNETRuntime:::events { @ = count(); }" -E "$ETW_FIXTURES/replay.etl"'
