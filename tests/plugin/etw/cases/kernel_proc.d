proc:::create
{
	printf("create: %s (pid %d) makes %s pid %d ppid %d sid %d arch %d \"%s\" (%d)\n", execname, pid,
	    args[0]->pr_fname, args[0]->pr_pid, args[0]->pr_ppid, args[0]->pr_sid, args[0]->pr_arch,
	    args[0]->pr_psargs, args[0]->pr_arglen);
}

proc:::start
{
	printf("start: %s pid %d ppid %d, curpsinfo %s %d, parent %d\n", execname, pid, ppid,
	    curpsinfo->pr_fname, curpsinfo->pr_pid, curpsinfo->pr_ppid);
}

proc:::lwp-create
{
	printf("lwp-create: by tid %d: tid %d pri %d of %s\n", tid, args[0]->pr_lwpid, args[0]->pr_pri,
	    args[1]->pr_fname);
}

proc:::lwp-start
{
	printf("lwp-start: %s pid %d tid %d, curlwpsinfo %d\n", execname, pid, tid, curlwpsinfo->pr_lwpid);
}

proc:::module-load,
proc:::module-unload
{
	printf("%s: %s pid %d %s at 0x%x size 0x%x\n", probename, execname, pid, copyinstr(arg0), args[1],
	    args[2]);
}

proc:::lwp-exit
{
	printf("lwp-exit: %s tid %d, state %c\n", execname, curlwpsinfo->pr_lwpid, curlwpsinfo->pr_sname);
}

proc:::exit
{
	printf("exit: %s pid %d status %d, curpsinfo %s\n", execname, pid, args[0], curpsinfo->pr_fname);
}
