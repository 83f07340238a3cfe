/* Assigning 0 deletes an element; reading it again gives 0. */
#pragma D option quiet

BEGIN
{
	a[5] = 9;
	a[5] = 0;
	printf("%d\n", a[5]);
	exit(0);
}
