/* A declared clause-local has the declared type. */
#pragma D option quiet

this char c;

BEGIN
{
	this->c = 0x141;
	printf("%d %d\n", this->c, sizeof (this->c));
	exit(0);
}
