/*
 * D does not promote char operands to int (DTrace's dt_type_promote picks
 * the larger operand type): char + char is a char, recorded as one byte.
 */
#pragma D option quiet

BEGIN
{
	a = (char)100;
	b = (char)100;
	printf("%d\n", a + b);
	exit(0);
}
