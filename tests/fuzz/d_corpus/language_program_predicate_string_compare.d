/* A predicate comparing strings. */
#pragma D option quiet

BEGIN
/probename == "BEGIN"/
{
	printf("matched\n");
	exit(0);
}
