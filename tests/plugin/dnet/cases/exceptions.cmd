sh -c 'for f in runtime.etl runtime32.etl runtime-v4.nettrace runtime-v5-32.nettrace runtime-v6.nettrace; do echo "== $f"; dtrace -qE "$DNET_FIXTURES/$f" -s exceptions.d || exit 1; done'
