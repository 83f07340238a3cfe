sh -c 'rm -f /tmp/dtrace-golden-o.txt && dtrace -q -o /tmp/dtrace-golden-o.txt -n "BEGIN { printf(\"to file\\n\"); exit(0); }" && cat /tmp/dtrace-golden-o.txt'
