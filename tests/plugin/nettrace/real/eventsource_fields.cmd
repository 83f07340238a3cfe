sh -c 'dtrace -qE "$NETTRACE_DATA/only_managed_samples.nettrace.zip" -n "etw:::ProcessInfo { printf(\"%s\n\", copyinstr(args[0])); }"'
