sh -c 'for f in sample-v4 sample-v4-plain sample-v5 sample-v6; do echo "== $f"; dtrace -qE "$NETTRACE_FIXTURES/$f.nettrace" -s events_in_order.d || exit 1; done'
