/* Octal constants start with 0. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", 010, 0777);
	exit(0);
}
