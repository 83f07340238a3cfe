/*
 * An inline array is an expression of its parameters: each use binds them
 * to its index values, evaluated once.
 */
#pragma D option quiet

inline int add[int a, int b] = a + b;
inline string sig[int s] = s == 1 ? "SIGHUP" : s == 2 ? "SIGINT" : "other";

BEGIN
{
	i = 3;
	printf("%d %d %s %s %s\n", add[1, 2], add[i++, 10], sig[1], sig[2], sig[i]);
	exit(0);
}
