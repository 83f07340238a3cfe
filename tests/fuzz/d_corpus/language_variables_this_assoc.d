/* A clause-local may not be an associative array. */
BEGIN
{
	this->a[1] = 2;
}
