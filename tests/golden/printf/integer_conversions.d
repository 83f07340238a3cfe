#pragma D option quiet

BEGIN
{
	printf("%d|%i|%u|%o|%x|%X\n", 42, 42, 42, 42, 255, 255);
	printf("%d|%u\n", -1, -1);
	exit(0);
}
