/*
 * Each block of a clause split at its if statements is its own enabling, as
 * in DTrace: without -q each one that records prints its own probe line, and
 * each part (plus the one dtrace:::ERROR clause) counts in "matched N probes".
 */
BEGIN
{
	trace(1);
	if (1) {
		trace(2);
	}
	trace(3);
	exit(0);
}
