/* A typedef of a pointer type scales arithmetic by the pointee. */
#pragma D option quiet

typedef int *intp_t;

BEGIN
{
	printf("%p\n", (intp_t)0x100 + 2);
	exit(0);
}
