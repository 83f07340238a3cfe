/* An associative array key list cannot end in ... */
int counts[int, ...];

BEGIN
{
	exit(0);
}
