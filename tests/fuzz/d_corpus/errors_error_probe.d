#pragma D option quiet

BEGIN
{
	x = 0;
	y = 10 / x;
}

ERROR
{
	printf("ERROR: epid %d action %d fault %d\n", arg1, arg2, arg4);
	exit(0);
}
