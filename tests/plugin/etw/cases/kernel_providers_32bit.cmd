sh -c 'dtrace -qs kernel_providers.d -E "$ETW_FIXTURES/kernel32.etl"'
