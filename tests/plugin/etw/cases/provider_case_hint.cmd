sh -c 'dtrace -qn "Sched:::on-cpu { @ = count(); }" -E "$ETW_FIXTURES/kernel.etl"'
