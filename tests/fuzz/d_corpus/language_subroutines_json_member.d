/* json() selects a member of a JSON object. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", json("{\"a\": 1, \"b\": \"two\"}", "b"));
	exit(0);
}
