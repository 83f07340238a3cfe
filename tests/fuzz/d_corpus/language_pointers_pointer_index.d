/* p[i] is *(p + i). */
#pragma D option quiet

BEGIN
{
	p = (int *)alloca(3 * sizeof (int));
	p[0] = 10;
	p[1] = 20;
	p[2] = 30;
	printf("%d %d %d\n", *(p + 1), p[2], 2[p]);
	exit(0);
}
