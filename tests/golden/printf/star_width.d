#pragma D option quiet

BEGIN
{
	printf("[%*d][%-*d][%*s]\n", 6, 42, 6, 42, 4, "ab");
	exit(0);
}
