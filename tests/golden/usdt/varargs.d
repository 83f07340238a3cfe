provider v {
	probe p(int, ...);
};
