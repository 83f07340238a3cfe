/*
 * A program may define the names DTrace predefines: its own definition
 * replaces the predefined one (an inline, a variable, an enumerator, an
 * assignment).
 */
#pragma D option quiet

inline int EINVAL = 99;
int SIGKILL;
enum signals { SIGUSR1 = 100 };

BEGIN
{
	SIGKILL = 7;
	SIGTERM = 8;
	printf("%d %d %d %d %d\n", EINVAL, SIGKILL, SIGUSR1, SIGTERM, SIGHUP);
	exit(0);
}
