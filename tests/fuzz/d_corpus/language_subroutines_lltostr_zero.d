/* lltostr(0) is "0". */
#pragma D option quiet

BEGIN
{
	printf("%s\n", lltostr(0));
	exit(0);
}
