/* Pointer and array declarators in their C forms, as sizeof sees them. */
#pragma D option quiet

int (*fp)(int);
char *(*fpa[4])(void);
int *pa[3];
int (*ap)[3];
int **pp;
const char *const cp;
int grid[2][3];
struct point { int x, y; } *points[2];

BEGIN
{
	printf("%d %d %d %d\n", sizeof (fp), sizeof (fpa), sizeof (pa), sizeof (ap));
	printf("%d %d %d %d\n", sizeof (*ap), sizeof (pp), sizeof (cp), sizeof (grid));
	printf("%d %d %d\n", sizeof (grid[1]), sizeof (points), sizeof (*points[0]));
	exit(0);
}
