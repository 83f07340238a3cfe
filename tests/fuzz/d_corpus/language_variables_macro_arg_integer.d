/* An integer operand used as $1 is an integer constant. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", $1 * 2);
	exit(0);
}
