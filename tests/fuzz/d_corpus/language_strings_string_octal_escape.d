/* Octal escapes in string literals. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", "\101\102\103");
	exit(0);
}
