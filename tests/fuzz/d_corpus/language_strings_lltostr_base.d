/* lltostr() with a base. */
#pragma D option quiet

BEGIN
{
	printf("%s %s %s\n", lltostr(255, 16), lltostr(8, 2), lltostr(64, 8));
	exit(0);
}
