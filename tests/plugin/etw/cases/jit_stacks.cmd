sh -c 'dtrace -qs jit_stacks.d -E "$ETW_FIXTURES/jit_stacks.etl"'
