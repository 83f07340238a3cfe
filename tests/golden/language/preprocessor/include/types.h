/* D declarations in a header. */
struct from_header {
	int a;
	long b;
};
