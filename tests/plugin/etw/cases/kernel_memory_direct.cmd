sh -c 'dtrace -qs kernel_memory_direct.d -E "$ETW_FIXTURES/kernel.etl"'
