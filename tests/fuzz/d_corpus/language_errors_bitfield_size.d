/* A bit-field wider than its type. */
struct s {
	char c : 9;
};
