/* #pragma line renumbers lines. */
#pragma D option quiet

#pragma line 50
BEGIN
{
	trace(nosuch);
}
