/* An inline expression over builtins is evaluated where it is used. */
#pragma D option quiet

inline int is_begin = probename == "BEGIN";

BEGIN
{
	printf("%d\n", is_begin);
	exit(0);
}
