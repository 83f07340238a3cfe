/* The array member of a struct variable, written and read by element. */
#pragma D option quiet

struct pt {
	char tag[4];
	int x;
};

struct pt p;

BEGIN
{
	p.tag[0] = 'a';
	p.tag[1] = 'b';
	p.x = 3;
	i = 2;
	p.tag[i] = 'c';
	printf("%c%c%c %d %s\n", p.tag[0], p.tag[1], p.tag[2], p.x, stringof(p.tag));
	exit(0);
}
