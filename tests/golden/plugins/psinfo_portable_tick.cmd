dtrace -x plugins=dtrace,profile,syscall -qn 'tick-100 { printf("%s %d %d\n", curpsinfo->pr_fname, curpsinfo->pr_pid == pid, curlwpsinfo->pr_lwpid == tid); exit(0); }'
