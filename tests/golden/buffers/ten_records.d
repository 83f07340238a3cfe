/*
 * Ten records at BEGIN, exit() a second later, one record at END: run with
 * buffers too small for all of them by switch_drops, fill and ring.
 */
#pragma D option quiet

BEGIN
{
	printf("%d\n", 1);
}

BEGIN
{
	printf("%d\n", 2);
}

BEGIN
{
	printf("%d\n", 3);
}

BEGIN
{
	printf("%d\n", 4);
}

BEGIN
{
	printf("%d\n", 5);
}

BEGIN
{
	printf("%d\n", 6);
}

BEGIN
{
	printf("%d\n", 7);
}

BEGIN
{
	printf("%d\n", 8);
}

BEGIN
{
	printf("%d\n", 9);
}

BEGIN
{
	printf("%d\n", 10);
}

tick-1s
{
	exit(0);
}

END
{
	printf("end\n");
}
