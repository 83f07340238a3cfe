bash -c 'dtrace -n "fpid\$target:a.out:parse_request:entry { trace(copyinstr(arg0)); }" -c "$BUILD/tests/targets/pid_target" 2>&1 | sed -e "s/fpid[0-9][0-9]*/fpidN/g"'
