/* The same for a store into the array member of a struct variable. */
struct pt {
	char tag[4];
};

struct pt p;

BEGIN
{
	p.tag[4] = 'x';
}
