/* sizeof (*p) is the size of the pointee. */
#pragma D option quiet

BEGIN
{
	p = (int64_t *)0;
	printf("%d\n", sizeof (*p));
	exit(0);
}
