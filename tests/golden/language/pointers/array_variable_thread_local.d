/* A thread-local array variable, indexed by a variable. */
#pragma D option quiet

self char c[3];

BEGIN
{
	i = 2;
	self->c[0] = 'x';
	self->c[i] = 'z';
	self->c[1] = self->c[0] + 1;
	printf("%c%c%c\n", self->c[0], self->c[1], self->c[2]);
	exit(0);
}
