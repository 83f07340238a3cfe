sh -c 'cd "$ETW_FIXTURES" && dtrace -E session_user.etl -E session.zip -n "END { exit(0); }"'
