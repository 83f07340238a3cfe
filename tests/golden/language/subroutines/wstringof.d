/*
 * wstringof() reads a UTF-16 string up to its NUL and gives it as a UTF-8
 * D string: ASCII, a character of the basic plane and one past it (a
 * surrogate pair), and a lone surrogate as U+FFFD.
 */
#pragma D option quiet

BEGIN
{
	this->w = (uint16_t *)alloca(16);
	this->w[0] = 'H';
	this->w[1] = 'i';
	this->w[2] = 0x263a;
	this->w[3] = 0xd83d;
	this->w[4] = 0xde00;
	this->w[5] = 0xdc00;
	this->w[6] = 0;
	printf("[%s] %d bytes\n", wstringof(this->w), strlen(wstringof(this->w)));
	this->w[2] = 0;
	printf("[%s]\n", wstringof(this->w));
	exit(0);
}
