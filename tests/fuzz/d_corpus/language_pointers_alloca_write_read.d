/* alloca() gives scratch memory that can be written and read. */
#pragma D option quiet

BEGIN
{
	p = (int *)alloca(sizeof (int));
	*p = 1234;
	printf("%d\n", *p);
	exit(0);
}
