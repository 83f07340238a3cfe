/* An enumerator without a value follows the previous one. */
#pragma D option quiet

enum e { A = 5, B, C = 10, D };

BEGIN
{
	printf("%d %d %d %d\n", A, B, C, D);
	exit(0);
}
