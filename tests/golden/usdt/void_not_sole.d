provider v {
	probe p(int, void);
};
