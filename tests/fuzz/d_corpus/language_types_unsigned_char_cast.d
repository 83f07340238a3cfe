/* A cast to unsigned char keeps the low 8 bits. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (unsigned char)300);
	exit(0);
}
