/*
 * The prototypes DTrace accepts: void alone, unnamed parameters, varargs
 * after a parameter, pointers to void, and associative array key lists.
 */
#pragma D option quiet

int f0(void);
int f1(int, char *);
int f2(int count, ...);
void *f3(void *, void **);
int counts[int, string];

BEGIN
{
	counts[1, "a"] = 2;
	printf("%d\n", counts[1, "a"]);
	exit(0);
}
