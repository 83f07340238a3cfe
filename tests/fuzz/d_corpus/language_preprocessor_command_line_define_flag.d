/* -D without a value defines the name as 1. */
#pragma D option quiet

BEGIN
{
#ifdef DEBUG
	printf("debug %d\n", DEBUG);
#endif
	exit(0);
}
