sh -c 'dtrace -lvE "$DNET_FIXTURES/runtime.etl" -n dnet::gc:gc-start -n dnet:gc::allocate-tick -n dnet:::excp'
