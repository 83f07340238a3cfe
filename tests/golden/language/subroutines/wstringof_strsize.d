/* wstringof() stops at strsize, never cutting a character in half. */
#pragma D option quiet
#pragma D option strsize=6

BEGIN
{
	this->w = (uint16_t *)alloca(16);
	this->w[0] = 'a';
	this->w[1] = 'b';
	this->w[2] = 'c';
	this->w[3] = 0x263a;
	this->w[4] = 'd';
	this->w[5] = 0;
	printf("[%s]\n", wstringof(this->w));
	exit(0);
}
