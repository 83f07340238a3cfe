/*
 * A constant index past the end of an array: D_ARR_BOUNDS (unsure: the tag
 * and message are those of the DTrace that checks it; others accept it).
 */
int a[5];

BEGIN
{
	trace(a[5]);
}
