/* alloca() memory starts zeroed. */
#pragma D option quiet

BEGIN
{
	p = (uint64_t *)alloca(16);
	printf("%d %d\n", p[0], p[1]);
	exit(0);
}
