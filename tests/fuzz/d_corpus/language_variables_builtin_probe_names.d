/* probeprov, probemod, probefunc and probename describe the probe. */
#pragma D option quiet

BEGIN
{
	printf("%s:%s:%s:%s\n", probeprov, probemod, probefunc, probename);
	exit(0);
}
