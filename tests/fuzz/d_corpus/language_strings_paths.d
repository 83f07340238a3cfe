/* basename(), dirname() and cleanpath(). */
#pragma D option quiet

BEGIN
{
	printf("[%s] [%s]\n", basename("/usr/lib/libc.so.1"), dirname("/usr/lib/libc.so.1"));
	printf("[%s] [%s]\n", basename("file"), dirname("file"));
	printf("[%s] [%s]\n", basename("/"), dirname("/"));
	printf("[%s] [%s]\n", basename("/usr/lib/"), dirname("/usr/lib/"));
	printf("[%s]\n", cleanpath("/usr/./lib/../bin//ls"));
	exit(0);
}
