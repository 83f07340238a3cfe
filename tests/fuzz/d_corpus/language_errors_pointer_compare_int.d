/* A pointer compared with a non-zero integer. */
BEGIN
{
	p = (int *)1;
	trace(p == 5);
}
