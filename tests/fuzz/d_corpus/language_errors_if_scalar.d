/*
 * An if test must be a scalar. DTrace rewrites `if (test)` into a clause
 * assigning (1 && test), so the error is that operator's, in the action list.
 * Unsure: DTrace gives the synthesized && the line its rewrite ran at (the
 * end of the program); we give it the test's line.
 */
BEGIN
{
	if ("text")
		trace(1);
}
