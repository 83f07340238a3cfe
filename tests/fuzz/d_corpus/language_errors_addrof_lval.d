/* Only an lvalue has an address. */
BEGIN
{
	y = &(1 + 2);
}
