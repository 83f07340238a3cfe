/* $0 is the script name. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", $0);
	exit(0);
}
