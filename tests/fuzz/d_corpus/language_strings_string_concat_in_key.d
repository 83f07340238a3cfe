/* A string built with strjoin() works as a key. */
#pragma D option quiet

BEGIN
{
	a[strjoin("k", "1")] = 5;
	printf("%d\n", a["k1"]);
	exit(0);
}
