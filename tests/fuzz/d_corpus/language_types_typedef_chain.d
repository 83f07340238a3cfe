/* A typedef of a typedef. */
#pragma D option quiet

typedef unsigned char byte_t;
typedef byte_t octet_t;

BEGIN
{
	printf("%d %d\n", sizeof (octet_t), (octet_t)257);
	exit(0);
}
