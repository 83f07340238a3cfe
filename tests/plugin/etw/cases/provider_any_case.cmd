sh -c 'dtrace -qn "Microsoft-Windows-DotNETRuntime:::events { @ = count(); } microsoft-windows-dotnetruntime:::events { @lower = count(); }" -E "$ETW_FIXTURES/replay.etl"'
