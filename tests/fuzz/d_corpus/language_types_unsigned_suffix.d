/* The u suffix makes a constant unsigned: -1 compares below it. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", -1 < 1u);
	exit(0);
}
