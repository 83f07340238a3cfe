/* A macro argument in a probe description. */
#pragma D option quiet

profile:::tick-$1ms
{
	printf("%s\n", probename);
	exit(0);
}
