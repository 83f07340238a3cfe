/* Typedefs of structs, anonymous structs and struct tags. */
#pragma D option quiet

typedef struct point {
	int x;
	int y;
} point_t;

typedef struct {
	point_t from;
	point_t to;
} line_t;

BEGIN
{
	printf("%d %d %d\n", sizeof (point_t), sizeof (struct point), sizeof (line_t));
	printf("%d\n", offsetof(line_t, to));
	exit(0);
}
