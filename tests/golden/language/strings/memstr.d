/*
 * memstr() (FreeBSD's): the first len - 1 bytes of a NUL-separated block
 * as one string, each NUL shown as the separator.
 */
#pragma D option quiet

BEGIN
{
	this->b = (char *)alloca(8);
	this->b[0] = 'a';
	this->b[1] = 0;
	this->b[2] = 'b';
	this->b[3] = 'c';
	this->b[4] = 0;
	this->b[5] = 'd';
	this->b[6] = 0;
	printf("[%s]\n", memstr(this->b, ' ', 7));
	printf("[%s]\n", memstr(this->b, ',', 4));
	printf("[%s]\n", memstr(this->b, ' ', 1));
	exit(0);
}
