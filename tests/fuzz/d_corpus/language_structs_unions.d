/* A union is as large as its largest member; all members start at 0. */
#pragma D option quiet

union u {
	char c;
	int i;
	long l;
	char buf[3];
};

BEGIN
{
	printf("%d %d %d\n", sizeof (union u), offsetof(union u, l),
	    offsetof(union u, buf));
	exit(0);
}
