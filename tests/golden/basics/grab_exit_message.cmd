bash -o pipefail -c 'sleep 0.3 & dtrace -p $! -n "END { printf(\"end\\n\"); }" 2>&1 | sed -e "s/pid [0-9]* /pid N /"'
