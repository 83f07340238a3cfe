/* Negating an unsigned constant keeps it within its type's width. */
#pragma D option quiet

BEGIN
{
	printf("%x %d\n", -(unsigned int)1, -(unsigned int)1 == 0xffffffff);
	exit(0);
}
