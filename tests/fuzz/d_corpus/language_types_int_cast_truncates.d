/* A cast to int keeps the low 32 bits, sign-extended. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (int)0x180000001LL);
	exit(0);
}
