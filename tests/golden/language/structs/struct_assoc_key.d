/*
 * Structs as associative array keys are their bytes: two structs with the
 * same members are the same key, and changing a struct after using it as a
 * key changes which element it finds. Struct values are copies.
 */
#pragma D option quiet

struct key { int a; long b; };
struct key k1, k2, k3;

BEGIN
{
	k1.a = 1; k1.b = 2;
	k2.a = 1; k2.b = 3;
	seen[k1] = 10;
	seen[k2] = 20;
	self->byk[k1, 5] = k2;
	k3 = k1;
	k2.b = 4;
	printf("%d %d %d\n", seen[k1], seen[k3], self->byk[k3, 5].b);
	k1.b = 3;
	printf("%d %d\n", seen[k1], self->byk[k1, 5].b);
	exit(0);
}
