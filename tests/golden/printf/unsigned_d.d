/* %d of an unsigned type prints it unsigned, as DTrace turns %d into %u. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", (unsigned int)-1, (uint64_t)-1);
	exit(0);
}
