struct point {
	int x, y;
};

provider geo {
	probe moved(struct point);
};
