/* %s takes a string or a char array; a char * needs stringof(). */
BEGIN
{
	this->b = (char *)alloca(4);
	printf("%s\n", this->b);
}
