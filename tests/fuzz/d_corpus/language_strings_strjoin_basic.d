/* strjoin() concatenates. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strjoin("foo", "bar"));
	exit(0);
}
