/*
 * A string built byte by byte in alloca()'d memory, printed with %s once
 * it is a string (stringof or a cast), and copied into a string variable.
 */
#pragma D option quiet

BEGIN
{
	this->b = (char *)alloca(8);
	this->b[0] = 'd';
	this->b[1] = 't';
	this->b[2] = 'r';
	this->b[3] = '\0';
	printf("[%s] [%s] [%5s] [%-5s]\n", stringof(this->b), (string)this->b,
	    stringof(this->b), stringof(this->b));
	this->s = stringof(this->b);
	this->b[0] = 'D';
	printf("%s %s %d\n", this->s, stringof(this->b), strlen(stringof(this->b)));
	exit(0);
}
