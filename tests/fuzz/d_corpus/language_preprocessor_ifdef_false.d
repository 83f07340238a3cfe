/* #ifdef of an undefined name drops its lines. */
#pragma D option quiet

BEGIN
{
#ifdef NOT_DEFINED
	printf("dropped\n");
#else
	printf("kept\n");
#endif
	exit(0);
}
