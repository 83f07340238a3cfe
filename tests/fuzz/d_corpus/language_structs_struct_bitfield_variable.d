/* A bit-field member of a struct variable. */
#pragma D option quiet

struct f { unsigned int a : 4; };
struct f flags;

BEGIN
{
	flags.a = 19;
	printf("%d\n", flags.a);
	exit(0);
}
