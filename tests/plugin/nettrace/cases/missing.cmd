bash -c 'set -o pipefail; dtrace -qE /nonexistent/trace.nettrace -n "diag:::events { @ = count(); }" 2>&1 | sed "s|[^ ]*/etw\.so|etw.so|"'
