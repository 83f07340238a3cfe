#pragma D option quiet

BEGIN
{
	printf("%s=%d ", "a", 1);
	printf("%s=%d\n", "b", 2);
	exit(0);
}
