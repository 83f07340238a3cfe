sh -c 'cd "$ETW_FIXTURES" && dtrace -E session_user.etl -E . -n "END { exit(0); }"'
