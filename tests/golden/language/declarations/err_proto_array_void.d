/* An associative array key cannot be void. */
int counts[void];

BEGIN
{
	exit(0);
}
