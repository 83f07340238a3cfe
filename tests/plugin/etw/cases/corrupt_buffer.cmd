sh -c 'cd "$ETW_FIXTURES" && dtrace -qE corrupt.etl -n "diag:::events { @ = count(); }"'
