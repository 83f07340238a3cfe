/* Comparisons of unsigned values are unsigned. */
#pragma D option quiet

BEGIN
{
	x = (uint64_t)-1;
	printf("%d\n", x > 1);
	exit(0);
}
