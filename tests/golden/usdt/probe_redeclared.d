provider dup {
	probe same(int);
	probe same(int);
};
