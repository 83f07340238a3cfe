/* #pragma ident is ignored. */
#pragma D option quiet

#pragma ident "version 1"

BEGIN
{
	printf("ok\n");
	exit(0);
}
