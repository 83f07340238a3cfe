/* A clause-local array variable: set in one clause, read in the next. */
#pragma D option quiet

this uint64_t v[2];

BEGIN
{
	this->v[0] = 0xffffffffffffffff;
	this->v[1] = 2;
}

BEGIN
{
	printf("%x %d %d\n", this->v[0], this->v[1], sizeof (this->v));
	exit(0);
}
