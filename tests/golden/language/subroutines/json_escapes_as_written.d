/*
 * json() gives a string value without its quotes but with its escapes as
 * written, and compares keys as written.
 */
#pragma D option quiet

BEGIN
{
	printf("%s\n", json("{\"s\": \"say \\\"hi\\\" \\u00e9\"}", "s"));
	printf("%s\n", json("{\"k\\\"ey\": 1}", "k\\\"ey"));
	exit(0);
}
