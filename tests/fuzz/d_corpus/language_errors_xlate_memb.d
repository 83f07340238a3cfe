/* A translator member the output type does not have. */
typedef struct info { int a; } info_t;
translator info_t < int x > {
	a = x;
	b = x;
};
