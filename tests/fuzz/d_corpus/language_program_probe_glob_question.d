/* A glob with ? matches one character. */
#pragma D option quiet

dtrace:::BEGI?
{
	printf("%s\n", probename);
	exit(0);
}
