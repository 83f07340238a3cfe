/* A type for the programs compiled after this library. */
typedef struct point {
	int x;
	int y;
} point_t;
