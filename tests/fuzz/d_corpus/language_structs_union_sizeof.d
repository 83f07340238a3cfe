/* A union is as large as its largest member. */
#pragma D option quiet

union u { char c; int64_t l; int i; };

BEGIN
{
	printf("%d\n", sizeof (union u));
	exit(0);
}
