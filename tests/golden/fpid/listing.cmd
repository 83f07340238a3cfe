bash -o pipefail -c 'dtrace -l -n "fpid\$target:a.out:parse_*:" -c "$BUILD/tests/targets/pid_target" | sed -e "s/fpid[0-9]*/fpidN/" | tr -s " " | cut -d" " -f3-'
