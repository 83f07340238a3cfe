sh -c 'dtrace -qE "$ETW_FIXTURES/session_kernel.etl" -E "$ETW_FIXTURES/session_user.etl" -s session.d'
