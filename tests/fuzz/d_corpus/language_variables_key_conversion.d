/*
 * Keys are converted to the array's key types: a key stored as an int is
 * found again with a long of the same value.
 */
#pragma D option quiet

BEGIN
{
	k = 5;
	a[k] = 1;
	printf("%d %d\n", a[5LL], a[(char)261]);
	exit(0);
}
