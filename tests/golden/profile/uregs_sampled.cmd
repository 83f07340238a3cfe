dtrace -qn 'profile-997 /pid == $target && arg1 != 0/ { printf("%d %d %d\n", uregs[R_PC] == arg1, uregs[R_RIP] == uregs[R_PC], uregs[R_SP] > 0x10000); exit(0); }' -c $DIR/busy_target.sh
