/*
 * Reads of scratch go past an allocation's end into the rest of the
 * scratch space, as DTrace's do: tracemem() of 64 bytes of a 4-byte
 * alloca() shows them and the (here untouched, zero) scratch after them.
 * A read past the end of the scratch space (8 MB) still faults.
 */
#pragma D option quiet

BEGIN
{
	this->p = (char *)alloca(4);
	this->p[0] = 'a';
	this->p[1] = 'b';
	this->p[2] = 'c';
	this->p[3] = 'd';
	tracemem(this->p, 32);
	printf("%s|\n", stringof(this->p));
}

BEGIN
{
	tracemem((char *)alloca(1) + (8 << 20), 16);
}

ERROR
{
	printf("fault %d in action #%d\n", arg4, arg2);
	exit(0);
}
