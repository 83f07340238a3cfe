sh -c 'dtrace -qE "$ETW_FIXTURES/stack_keys.etl" -s stack_keys.d'
