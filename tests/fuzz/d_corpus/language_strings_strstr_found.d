/* strstr() returns the string from the first occurrence. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strstr("hello world", "o w"));
	exit(0);
}
