/* A character constant is an int with the character's value. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d\n", 'a', '0', ' ');
	exit(0);
}
