sh -c 'dtrace -qE "$ETW_FIXTURES/every_kind.etl" -s diag_every_kind.d'
