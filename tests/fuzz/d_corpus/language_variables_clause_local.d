/* Clause-local variables hold values within a clause. */
#pragma D option quiet

this int x;

BEGIN
{
	this->x = 10;
	this->y = this->x * 2;
	this->s = strjoin("a", "b");
	printf("%d %d %s\n", this->x, this->y, this->s);
	exit(0);
}
