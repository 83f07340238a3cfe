sh -c 'dtrace -qs kernel_proc.d -E "$ETW_FIXTURES/kernel32.etl"'
