/* The kernel providers over the NT kernel logger's file: the first firings
 * of the proc probes with their translated arguments, then every count. */
proc:::exit
/exits++ < 3/
{
	printf("exit: %s pid %d ppid %d status %d, curpsinfo %s %d \"%s\"\n", execname, pid, ppid, args[0],
	    curpsinfo->pr_fname, curpsinfo->pr_sid, curpsinfo->pr_psargs);
}

proc:::lwp-start
/starts++ < 3/
{
	printf("lwp-start: %s pid %d tid %d pri %d io %d page %d, process %s\n", execname, pid, tid,
	    args[0]->pr_pri, args[0]->pr_iopri, args[0]->pr_pagepri, args[1]->pr_fname);
}

proc:::lwp-exit
/lwpexits++ < 3/
{
	printf("lwp-exit: %s pid %d tid %d state %c\n", execname, pid, tid, curlwpsinfo->pr_sname);
}

proc:::module-load
/loads++ < 3/
{
	printf("module-load: %s pid %d %s at 0x%x size 0x%x\n", execname, pid, copyinstr(arg0), args[1], args[2]);
}

proc:::
{
	@[probename] = count();
}
