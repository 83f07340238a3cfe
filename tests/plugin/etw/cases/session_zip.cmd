sh -c 'dtrace -qE "$ETW_FIXTURES/session.zip" -s session.d'
