/* toupper() changes only lower-case letters. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", toupper("abc-XYZ-123"));
	exit(0);
}
