/* One clause for a list of probes. */
#pragma D option quiet

BEGIN,
END
{
	printf("%s\n", probename);
}

BEGIN
{
	exit(0);
}
