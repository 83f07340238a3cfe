sh -c 'dtrace -lE "$DNET_FIXTURES/runtime-v4.nettrace" -P dnet'
