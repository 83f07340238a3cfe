/*
 * An inline may be a translation, as DTrace's curpsinfo is: its members are
 * translated where they are used, from the input's value at that point.
 */
#pragma D option quiet

typedef struct info { int doubled; int negated; } info_t;

translator info_t < int x > {
	doubled = x * 2;
	negated = -x;
};

int n;

inline info_t *current = xlate <info_t *> (n);
inline info_t whole = xlate <info_t> (n + 1);

BEGIN
{
	n = 21;
	printf("%d %d %d\n", current->doubled, current->negated, whole.doubled);
	n = 5;
	printf("%d\n", current->doubled);
	exit(0);
}
