#pragma D option quiet

BEGIN
{
	printf("just text\n");
	exit(0);
}
