/* A reserved word cannot be a variable name. */
BEGIN
{
	sizeof = 1;
}
