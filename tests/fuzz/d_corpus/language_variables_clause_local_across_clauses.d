#pragma D option quiet

this int v;

/*
 * Clause-local (this->) variables live across the clauses of one probe
 * firing (the Guide's clause.d example), and start unset at the next firing.
 */
tick-10ms
/i++ < 2/
{
	printf("first clause sees %d\n", this->v);
	this->v = i * 10;
}

tick-10ms
/i <= 2/
{
	printf("second clause sees %d\n", this->v);
	if (this->v > 10) {
		printf("inside if: %d\n", this->v);
	}
}

tick-10ms
/i > 2/
{
	exit(0);
}
