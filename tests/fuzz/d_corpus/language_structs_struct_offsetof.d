/* offsetof gives member offsets with padding. */
#pragma D option quiet

struct s { char c; int i; long l; };

BEGIN
{
	printf("%d %d %d\n", offsetof(struct s, c), offsetof(struct s, i), offsetof(struct s, l));
	exit(0);
}
