sh -c 'printf "not a shared object" > /tmp/dtrace-golden-broken.so; dtrace -x plugin=/tmp/dtrace-golden-broken.so -qn "BEGIN { exit(0); }"'
