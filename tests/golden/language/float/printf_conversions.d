/*
 * D has no floating-point constants: float and double values come from
 * memory. printf's %e %E %f %g %G with widths, precisions and flags, as C's
 * printf formats the value (a float is widened to double first); a precision
 * of .0 is dropped, as DTrace drops it when it rebuilds the conversion.
 */
#pragma D option quiet

BEGIN
{
	this->fbits = (int *)alloca(sizeof (int));
	*this->fbits = 0x3fc00000;		/* 1.5f */
	this->dbits = (uint64_t *)alloca(sizeof (uint64_t));
	*this->dbits = 0x400921fb54442d18;	/* pi */
	this->nbits = (uint64_t *)alloca(sizeof (uint64_t));
	*this->nbits = 0xc0f86a0000000000;	/* -100000.0 */
	this->tiny = (uint64_t *)alloca(sizeof (uint64_t));
	*this->tiny = 0x3e7ad7f29abcaf48;	/* 1e-7 */

	this->f = (float *)this->fbits;
	printf("[%e] [%E] [%f] [%g] [%G]\n", *this->f, *this->f, *this->f, *this->f, *this->f);
	printf("[%10.3f] [%-10.2e] [%+f] [% g] [%010.4f] [%#g] [%#.0f] [%.0e]\n",
	    *this->f, *this->f, *this->f, *this->f, *this->f, *this->f, *this->f, *this->f);
	printf("[%*.*f] [%-*g]\n", 12, 5, *this->f, 9, *this->f);

	this->d = (double *)this->dbits;
	printf("[%e] [%E] [%f] [%g] [%G]\n", *this->d, *this->d, *this->d, *this->d, *this->d);
	printf("[%.10g] [%.15f] [%20.12e] [%-+14.3E|] [%#.3g]\n",
	    *this->d, *this->d, *this->d, *this->d, *this->d);

	this->n = (double *)this->nbits;
	this->t = (double *)this->tiny;
	printf("[%e] [%f] [%g] [%G] [%+.2f]\n", *this->n, *this->n, *this->n, *this->n, *this->n);
	printf("[%e] [%f] [%g] [%G] [%.3g]\n", *this->t, *this->t, *this->t, *this->t, *this->t);
	exit(0);
}
