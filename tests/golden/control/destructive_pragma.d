/* #pragma D option destructive allows destructive actions as -w does. */
#pragma D option quiet
#pragma D option destructive

BEGIN
{
	system("echo %s", "pragma");
	exit(0);
}
