/* ERROR's arg4 compares with the DTRACEFLT_* names. */
#pragma D option quiet

BEGIN
{
	x = *(int *)0;
}

ERROR
/arg4 == DTRACEFLT_BADADDR/
{
	printf("bad address\n");
	exit(0);
}
