sh -c 'for f in "$ETW_DATA/gcevents.etl.zip" "$NETTRACE_DATA"/*.nettrace.zip; do echo "== ${f##*/}"; dtrace -qE "$f" -s counts.d || exit 1; done'
