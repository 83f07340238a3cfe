/* A char array member cannot be assigned a string. */
struct rec { char name[8]; };

BEGIN
{
	this->r = (struct rec *)alloca(sizeof (struct rec));
	this->r->name = "abc";
}
