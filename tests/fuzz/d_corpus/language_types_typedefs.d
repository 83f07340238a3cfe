/* typedef names types; sizeof and casts see through them. */
#pragma D option quiet

typedef unsigned char byte_t;
typedef byte_t octet_t;
typedef int *intp_t;

BEGIN
{
	printf("%d %d %d\n", sizeof (byte_t), sizeof (octet_t), sizeof (intp_t));
	printf("%d\n", (octet_t)257);
	exit(0);
}
