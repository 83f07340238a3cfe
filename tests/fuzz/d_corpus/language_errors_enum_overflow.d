/* Enumerators are ints. */
enum e {
	BIG = 0x100000000
};
