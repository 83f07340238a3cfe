/* tolower() changes only upper-case letters. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", tolower("ABC-xyz-123"));
	exit(0);
}
