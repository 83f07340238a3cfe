#pragma D option quiet

BEGIN
{
	printf("100%% done, %d%%\n", 50);
	exit(0);
}
