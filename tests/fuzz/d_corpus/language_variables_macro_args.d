/* $1 and $2 are the operands after the script. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", $1, $2 + 1);
	exit(0);
}
