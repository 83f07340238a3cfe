/* The constants DTrace predefines for D programs. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d %d\n", DTRACEFLT_UNKNOWN, DTRACEFLT_BADADDR, DTRACEFLT_BADALIGN, DTRACEFLT_ILLOP,
	    DTRACEFLT_DIVZERO);
	printf("%d %d %d %d %d %d\n", DTRACEFLT_NOSCRATCH, DTRACEFLT_KPRIV, DTRACEFLT_UPRIV, DTRACEFLT_TUPOFLOW,
	    DTRACEFLT_BADSTACK, DTRACEFLT_LIBRARY);
	printf("%d %d\n", AF_INET, AF_INET6);
	printf("%d %d %d %d %d\n", EPERM, ENOENT, EINTR, EAGAIN, EINVAL);
	printf("%d %d %d %d %d\n", SIGHUP, SIGINT, SIGKILL, SIGUSR1, SIGTERM);
	exit(0);
}
