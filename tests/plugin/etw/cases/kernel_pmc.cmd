sh -c 'dtrace -qs kernel_pmc.d -E "$ETW_FIXTURES/pmc.etl"'
