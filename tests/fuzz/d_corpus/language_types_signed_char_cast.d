/* A cast to char sign-extends the low 8 bits. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (char)200);
	exit(0);
}
