/* Pointers are 64 bits. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", sizeof (void *), sizeof (char **));
	exit(0);
}
