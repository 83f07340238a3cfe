/*
 * BEGIN, END and ERROR fire in dtrace's own thread, as in DTrace:
 * curpsinfo and curlwpsinfo describe dtrace's process and thread (they
 * faulted, reading a record no plugin had filled).
 */
#pragma D option quiet

BEGIN
{
	printf("BEGIN %s %d %d %d %d %d %d %d\n", curpsinfo->pr_fname, curpsinfo->pr_pid == pid,
	    curpsinfo->pr_ppid == ppid, curpsinfo->pr_pgid == $pgid, curpsinfo->pr_sid == $sid,
	    curpsinfo->pr_euid == $euid, curpsinfo->pr_argc > 1, curpsinfo->pr_dmodel == PR_MODEL_LP64);
	printf("lwp %d %s %c %d\n", curlwpsinfo->pr_lwpid == tid, curlwpsinfo->pr_name, curlwpsinfo->pr_sname,
	    curlwpsinfo->pr_state == SONPROC);
	printf("psargs %d\n", strstr(curpsinfo->pr_psargs, "psinfo_own_process.d") != NULL);
}

BEGIN
{
	trace(*(int *)8);
}

ERROR
{
	printf("ERROR %s %d\n", curpsinfo->pr_fname, curpsinfo->pr_pid == $pid);
	exit(0);
}

END
{
	printf("END %s %d\n", curpsinfo->pr_fname, curlwpsinfo->pr_lwpid == tid);
}
