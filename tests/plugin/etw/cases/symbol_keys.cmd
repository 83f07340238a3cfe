sh -c 'dtrace -qE "$ETW_FIXTURES/jit_stacks.etl" -s symbol_keys.d'
