/* progenyof() of an unrelated pid is false. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", progenyof(999999));
	exit(0);
}
