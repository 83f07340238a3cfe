#pragma D option quiet

BEGIN
{
	x = 0;
	printf("%d\n", 1 / x);
}

BEGIN
{
	printf("the next clause still runs\n");
	exit(0);
}
