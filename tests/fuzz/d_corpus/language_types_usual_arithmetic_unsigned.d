/* int compared with unsigned int compares as unsigned. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", (int)-1 > (unsigned int)1);
	exit(0);
}
