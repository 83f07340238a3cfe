sh -c 'for f in "$ETW_DATA/gcevents.etl.zip" "$NETTRACE_DATA/eventpipe-dotnetcore3.0-win-x64-objver4.nettrace.zip"; do echo "== ${f##*/}"; dtrace -qE "$f" -s ../cases/gc_durations.d || exit 1; done'
