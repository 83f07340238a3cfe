/* Union members share storage. */
#pragma D option quiet

union u { uint32_t i; uint8_t b[4]; };

BEGIN
{
	p = (union u *)alloca(sizeof (union u));
	p->i = 0x01020304;
	printf("%d %d\n", p->b[0], p->b[3]);
	exit(0);
}
