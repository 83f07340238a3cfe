/*
 * A string compares with a char * and with a char [] by their characters;
 * a void pointer is compatible with a string too.
 */
#pragma D option quiet

struct rec {
	char name[8];
	int id;
};

char buf[8];

BEGIN
{
	this->c = (char *)alloca(4);
	this->c[0] = 'h';
	this->c[1] = 'i';
	this->c[2] = '\0';
	printf("char *: %d %d %d\n", "hi" == this->c, this->c == "hi", this->c != "ho");
	printf("ordered: %d %d\n", this->c < "hj", "hh" < this->c);

	buf[0] = 'A';
	buf[1] = '\0';
	printf("char []: %d %d\n", buf == "A", "B" > buf);

	this->r = (struct rec *)alloca(sizeof (struct rec));
	this->r->name[0] = 'x';
	this->r->name[1] = '\0';
	printf("member char []: %s %d\n", this->r->name, this->r->name == "x");
	printf("void *: %d\n", "x" == (void *)0);
	exit(0);
}
