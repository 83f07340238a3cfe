sh -c 'cd "$NETTRACE_FIXTURES" && dtrace -qE truncated.nettrace -n "diag:::events { n++; } END { printf(\"%d events\n\", n); }"'
