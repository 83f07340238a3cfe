/* A translator member of the wrong type. */
typedef struct info { int a; } info_t;
translator info_t < int x > {
	a = "text";
};
