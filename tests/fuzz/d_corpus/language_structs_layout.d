/*
 * Structs declared in D are laid out by DTrace's CTF library: a member
 * starts after the previous one at its alignment, and a struct ends where its
 * last member ends (no padding after it, unlike C).
 */
#pragma D option quiet

struct s1 {
	char c;
	int i;
	short h;
};

struct s2 {
	char c;
	long l;
	char d;
};

BEGIN
{
	printf("%d %d %d %d\n", offsetof(struct s1, c), offsetof(struct s1, i),
	    offsetof(struct s1, h), sizeof (struct s1));
	printf("%d %d %d\n", offsetof(struct s2, l), offsetof(struct s2, d),
	    sizeof (struct s2));
	exit(0);
}
