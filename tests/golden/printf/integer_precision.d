#pragma D option quiet

BEGIN
{
	printf("[%.3d][%8.3d][%-8.3d][%.0d]\n", 7, 7, 7, 0);
	exit(0);
}
