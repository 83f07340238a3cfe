/* -U removes a definition. */
#pragma D option quiet

BEGIN
{
#ifdef __SUNW_D
	printf("defined\n");
#else
	printf("undefined\n");
#endif
	exit(0);
}
