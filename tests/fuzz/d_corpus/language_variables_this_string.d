/* A clause-local string. */
#pragma D option quiet

BEGIN
{
	this->s = strjoin("a", "b");
	printf("%s\n", this->s);
	exit(0);
}
