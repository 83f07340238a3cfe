/* An associative array is used with the same key types each time. */
BEGIN
{
	a[1] = 1;
	a["x"] = 2;
}
