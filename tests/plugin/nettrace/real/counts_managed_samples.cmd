sh -c 'dtrace -qE "$NETTRACE_DATA/only_managed_samples.nettrace.zip" -s counts.d'
