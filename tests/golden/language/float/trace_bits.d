/*
 * trace() records a float or a double as DTrace does, by its size: the
 * bits print as a 32- or 64-bit integer. A long double, wider than a
 * register, is recorded by reference and printed as bytes.
 */
float f;
long double ld;

BEGIN
{
	this->fbits = (int *)alloca(sizeof (int));
	*this->fbits = 0xc0490fdb;		/* -3.14159274f */
	this->dbits = (uint64_t *)alloca(sizeof (uint64_t));
	*this->dbits = 0x400921fb54442d18;	/* pi */
	trace(f);
	trace(*(float *)this->fbits);
	trace(*(double *)this->dbits);
	trace(ld);
	exit(0);
}
