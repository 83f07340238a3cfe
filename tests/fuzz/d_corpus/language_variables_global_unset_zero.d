/* A global assigned only in a clause that has not run reads as 0. */
#pragma D option quiet

BEGIN
/0/
{
	x = 5;
}

BEGIN
{
	printf("%d\n", x);
	exit(0);
}
