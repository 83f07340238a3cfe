bash -o pipefail -c 'sleep 1.5 & dtrace -p $! -n "END { printf(\"end\\n\"); }" 2>&1 | sed -e "s/pid [0-9]* /pid N /"'
