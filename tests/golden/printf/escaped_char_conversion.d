/* %C prints a character escaped as C would write it. */
#pragma D option quiet

BEGIN
{
	printf("[%C][%C]\n", 65, 10);
	exit(0);
}
