/*
 * json() reads the document once and stops at the selected value, as
 * DTrace's machine does: what follows it is never checked, what precedes it
 * is; a number where the selector goes on, or a selector past the end of an
 * array, gives NULL.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", json("{\"a\": 1 oops", "a"));
	printf("[%s]\n", json("{\"a\": 1.2.3}", "a"));
	printf("[%s]\n", json("{\"a\" 1, \"b\": 2}", "b") == NULL ? "NULL" : "?");
	printf("[%s]\n", json("{\"a\": 1}", "a.b") == NULL ? "NULL" : "?");
	printf("[%s]\n", json("{\"a\": [1, 2]}", "a[2]") == NULL ? "NULL" : "?");
	printf("[%s]\n", json("{\"a\": 1", "a") == NULL ? "NULL" : "?");
	exit(0);
}
