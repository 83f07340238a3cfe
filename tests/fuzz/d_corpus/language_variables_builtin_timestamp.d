/* timestamp does not go backwards. */
#pragma D option quiet

BEGIN
{
	t = timestamp;
}

tick-1ms
{
	printf("%d\n", timestamp > t);
	exit(0);
}
