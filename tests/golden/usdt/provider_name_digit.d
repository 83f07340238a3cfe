provider web2 {
	probe p(int);
};
