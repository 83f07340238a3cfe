/* Strings compare by their characters with the relational operators. */
#pragma D option quiet

BEGIN
{
	a = "apple";
	b = "apricot";
	printf("%d %d %d %d\n", a < b, a > b, a == "apple", a != "apple");
	printf("%d %d\n", "abc" <= "abc", "b" >= "abc");
	printf("%d\n", "" < "a");
	exit(0);
}
