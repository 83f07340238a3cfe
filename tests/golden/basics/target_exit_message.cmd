bash -o pipefail -c 'dtrace -c "sleep 0.1" -n "END { printf(\"end\\n\"); }" 2>&1 | sed -e "s/pid [0-9]* /pid N /"'
