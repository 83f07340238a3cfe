dtrace -qn 'pid$target:a.out:respond:entry { printf("%d %d %d\n", uregs[R_RDI], uregs[R_ESI], uregs[R_RIP] == uregs[R_PC]); }' -c "$BUILD/tests/targets/pid_target calls:3"
