bash -c 'set -o pipefail; cd "$ETW_FIXTURES" && dtrace -qE not_an_etl.etl -n "diag:::events { @ = count(); }" 2>&1 | sed "s|[^ ]*/etw\.so|etw.so|"'
