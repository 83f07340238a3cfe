/*
 * A cast of an integer constant is folded while compiling, and DTrace
 * narrows a constant by zero-extension (dt_cast) where a run-time cast
 * sign-extends: (char)-1 compares as 255 but prints as -1.
 */
#pragma D option quiet

BEGIN
{
	y = -1;
	printf("%d %d\n", (char)-1 < 0, (char)y < 0);
	printf("%d %d\n", (char)-1, (char)y);
	exit(0);
}
