/* A void pointer cannot be dereferenced. */
BEGIN
{
	p = (void *)0x1000;
	trace(*p);
}
