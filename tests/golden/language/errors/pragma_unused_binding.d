/*
 * A #pragma D binding applies to a declaration that follows it; a variable
 * its clauses create later comes too late (DTrace checks the pragmas when the
 * program has been read, before it compiles the clauses).
 */
#pragma D binding "1.0" declared
#pragma D binding "1.0" assigned
int declared;

BEGIN
{
	assigned = 1;
}
