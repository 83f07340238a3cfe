provider named {
	probe one(int);
};
