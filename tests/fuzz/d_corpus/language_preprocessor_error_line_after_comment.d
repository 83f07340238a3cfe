/* Error line numbers count the original lines, across comments and blank lines. */
#pragma D option quiet

/*
 * A comment
 * over several lines.
 */

#define X 1

BEGIN
{
	trace(nosuch + X);
}
