/* A scalar may not be indexed as an associative array. */
BEGIN
{
	x = 1;
	x[1] = 2;
}
