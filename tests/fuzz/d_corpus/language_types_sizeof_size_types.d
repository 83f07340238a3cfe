/* size_t, ssize_t, uintptr_t and intptr_t are 64 bits. */
#pragma D option quiet

BEGIN
{
	printf("%d %d %d %d\n", sizeof (size_t), sizeof (ssize_t), sizeof (uintptr_t), sizeof (intptr_t));
	exit(0);
}
