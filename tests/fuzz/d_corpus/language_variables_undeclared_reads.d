/* A declared but unassigned global reads as zero (or the empty string). */
#pragma D option quiet

int n;
string s;

BEGIN
{
	printf("[%d] [%s] [%d]\n", n, s, strlen(s));
	exit(0);
}
