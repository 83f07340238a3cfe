/* json() follows a dotted path into nested objects. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", json("{\"a\": {\"b\": 42}}", "a.b"));
	exit(0);
}
