/* == and !=. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", 3 == 3, 3 != 3);
	exit(0);
}
