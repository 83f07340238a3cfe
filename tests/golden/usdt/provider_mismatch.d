provider twice {
	probe first(int, char *);
};

provider twice {
	probe first(int, int);
};
