sh -c 'cd "$ETW_FIXTURES" && dtrace -qn "BEGIN { exit(0); }" -E .'
