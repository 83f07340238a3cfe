dtrace -qn 'fpid$target:a.out:respond:return { printf("%s returned %d\n", probefunc, arg1); }' -c "$BUILD/tests/targets/pid_target calls:3"
