/* A cast to unsigned short keeps the low 16 bits. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (unsigned short)70000);
	exit(0);
}
