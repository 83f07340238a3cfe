sh -c 'dtrace -qE "$ETW_FIXTURES/named.etl" -x etwmanifest="$ETW_FIXTURES/named.man" -s named_probes.d'
