/* A predicate must be a scalar. */
float f;

BEGIN
/f/
{
	exit(0);
}
