/* The provider of usdt_workload.c: its header and object are made by this
   build's dtrace -h and -G (tests/live/CMakeLists.txt). */
struct demo_point {
	int x, y;
};

provider demo {
	probe request__start(char *, int);
	probe request__done(char *, int, long);
	probe many(int, int, int, int, int, int, int, int);
	probe tick();
	probe located(struct demo_point *, int);
};
