/* A cast to short sign-extends the low 16 bits. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (short)40000);
	exit(0);
}
