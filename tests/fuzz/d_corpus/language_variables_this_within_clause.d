/* A clause-local holds a value within its clause. */
#pragma D option quiet

BEGIN
{
	this->x = 10;
	this->y = this->x * 2;
	printf("%d\n", this->y);
	exit(0);
}
