/* A clause-local variable over 16 KB is refused the same way. */
this char big[20000];

BEGIN
{
	this->big[0] = 1;
	exit(0);
}
