/* A provider of every argument kind dtrace -h passes: pointers (strings
   among them), signed and unsigned integers of each size, none. */
provider myprov {
	probe request__start(char *, int);
	probe request__done(const char *, int, long);
	probe tick();
	probe sizes(uint8_t, short, unsigned long long, int8_t) : (int, int, uint64_t, int);
};

provider other {
	probe ping(void);
};
