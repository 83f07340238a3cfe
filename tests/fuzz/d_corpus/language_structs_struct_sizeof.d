/* sizeof a struct includes padding for alignment. */
#pragma D option quiet

struct s { char c; int i; char d; };

BEGIN
{
	printf("%d\n", sizeof (struct s));
	exit(0);
}
