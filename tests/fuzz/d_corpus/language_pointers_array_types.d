/* Array types: sizeof multiplies, multi-dimensional arrays nest. */
#pragma D option quiet

typedef int row_t[4];

BEGIN
{
	printf("%d %d %d\n", sizeof (int [5]), sizeof (char [3][7]), sizeof (row_t));
	printf("%d\n", sizeof (struct { int a[3]; char b; }));
	exit(0);
}
