/* trunc() with no count removes every entry: nothing of @a prints at exit. */
#pragma D option quiet

BEGIN
{
	@a[1] = count();
	@a[2] = count();
	@b[3] = count();
	trunc(@a);
	exit(0);
}
