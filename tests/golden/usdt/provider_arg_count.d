provider twice {
	probe first(int);
};

provider twice {
	probe first(int, int);
};
