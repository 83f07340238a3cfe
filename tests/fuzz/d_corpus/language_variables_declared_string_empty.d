/* A declared string global starts empty. */
#pragma D option quiet

string s;

BEGIN
{
	printf("[%s] %d\n", s, strlen(s));
	exit(0);
}
