/* Two pointers cannot be added. */
BEGIN
{
	p = (int *)1;
	q = (int *)2;
	trace(p + q);
}
