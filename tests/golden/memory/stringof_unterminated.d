/*
 * stringof() of bytes that end with the scratch in use, without a NUL (the
 * classic stringof(copyin(arg1, arg2)) of a write's buffer): the string
 * reads on into the rest of the scratch space, as DTrace's does, here
 * untouched (zero), so it is those bytes; it was a fault.
 */
#pragma D option quiet

BEGIN
{
	this->p = (char *)alloca(5);
	this->p[0] = 'h';
	this->p[1] = 'e';
	this->p[2] = 'l';
	this->p[3] = 'l';
	this->p[4] = 'o';
	printf("%s|\n", stringof(this->p));
	exit(0);
}

ERROR
{
	exit(1);
}
