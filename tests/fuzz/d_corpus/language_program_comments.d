/* C comments anywhere between tokens. */
#pragma D option quiet

/* a */ BEGIN /* b */
{
	/*
	 * A comment over lines.
	 */
	printf("%d\n", 1 /* inline */ + 1);
	exit(0);
}
