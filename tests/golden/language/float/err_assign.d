/* DTrace cannot assign a floating-point value: float and float are not assignment-compatible. */
float f, g;

BEGIN
{
	f = g;
}
