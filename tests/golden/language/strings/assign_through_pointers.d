/*
 * Strings stored through pointers: a string member of a struct in scratch
 * memory or of a global struct, and a string through a string pointer.
 * The store copies the characters and the NUL, within the member.
 */
#pragma D option quiet

struct person {
	string name;
	int age;
};

struct person g;

BEGIN
{
	this->p = (struct person *)alloca(sizeof (struct person));
	this->p->age = 42;
	this->p->name = "ada";
	printf("%s %d\n", this->p->name, this->p->age);

	g.age = 7;
	g.name = "grace";
	g.name = strjoin(g.name, " hopper");
	printf("%s %d %d\n", g.name, g.age, g.name == "grace hopper");

	this->sp = (string *)alloca(sizeof (string));
	*this->sp = "through a pointer";
	printf("%s\n", *this->sp);

	a[1] = "one";
	a[2] = strjoin(a[1], "+one");
	printf("%s %s\n", a[1], a[2]);
	exit(0);
}
