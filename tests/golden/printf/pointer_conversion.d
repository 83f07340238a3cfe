#pragma D option quiet

BEGIN
{
	printf("[%p][%p]\n", (void *)0x1234, (char *)0);
	exit(0);
}
