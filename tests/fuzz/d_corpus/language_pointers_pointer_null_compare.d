/* A pointer compares with NULL and 0. */
#pragma D option quiet

BEGIN
{
	p = (int *)0;
	printf("%d %d\n", p == NULL, p == 0);
	exit(0);
}
