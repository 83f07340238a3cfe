/* A new variable takes the float type, then the assignment is refused as DTrace refuses it. */
BEGIN
{
	this->p = (float *)alloca(sizeof (float));
	this->f = *this->p;
}
