/* Subtracting pointers to different types. */
BEGIN
{
	p = (int *)1;
	q = (char *)2;
	trace(p - q);
}
