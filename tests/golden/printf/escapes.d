#pragma D option quiet

BEGIN
{
	printf("tab\there\\backslash \"quoted\" \101\n");
	exit(0);
}
