/* cpu is the CPU the probe fired on. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", cpu);
	exit(0);
}
