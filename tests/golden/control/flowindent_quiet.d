/* -F (flowindent) by pragma: the heading and probe lines print even when quiet. */
#pragma D option flowindent
#pragma D option quiet

BEGIN
{
	printf("quiet\n");
	exit(0);
}
