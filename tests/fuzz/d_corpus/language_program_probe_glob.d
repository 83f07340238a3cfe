/* A probe description with a glob. */
#pragma D option quiet

dtrace:::BEGI*
{
	printf("%s\n", probename);
	exit(0);
}
