sh -c 'dtrace -qs kernel_stacks.d -E "$ETW_FIXTURES/kernel.etl"'
