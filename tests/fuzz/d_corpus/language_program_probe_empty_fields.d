/* Empty fields match anything. */
#pragma D option quiet

::BEGIN
{
	printf("%s\n", probename);
	exit(0);
}
