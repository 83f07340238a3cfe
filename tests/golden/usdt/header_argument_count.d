/* dtrace -h: at most 12 arguments, what sys/sdt.h (STAP_PROBE12) and its readers carry. */
provider geo {
	probe big(int, int, int, int, int, int, int, int, int, int, int, int, int);
};
