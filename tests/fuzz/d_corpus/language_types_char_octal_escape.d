/* Octal escapes in character constants. */
#pragma D option quiet

BEGIN
{
	printf("%d %d\n", '\101', '\7');
	exit(0);
}
