sh -c 'dtrace -qE "$ETW_FIXTURES/kernel.etl" -s diag_stacks.d'
