sh -c 'dtrace -qE "$NETTRACE_FIXTURES/sample-v5.nettrace" -n "diag:::events /ustackdepth > 0/ { printf(\"id %d depth %d\", arg1, ustackdepth); ustack(); }"'
