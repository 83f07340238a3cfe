/* An associative array is used with the same number of keys each time. */
BEGIN
{
	a[1] = 1;
	a[1, 2] = 2;
}
