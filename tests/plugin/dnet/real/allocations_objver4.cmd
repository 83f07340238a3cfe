sh -c 'dtrace -qE "$NETTRACE_DATA/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip" -s allocations_top.d'
