/* zonename is "global" outside zones. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", zonename);
	exit(0);
}
