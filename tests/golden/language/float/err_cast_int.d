/* A float is not a scalar: casting it to an integer type is invalid. */
float f;

BEGIN
{
	trace((int)f);
}
