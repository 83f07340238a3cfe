/* A member's value is converted to the member's type. */
#pragma D option quiet

typedef struct narrow {
	unsigned char low;
	short half;
} narrow_t;

translator narrow_t < uint64_t v > {
	low = v;
	half = v >> 4;
};

BEGIN
{
	printf("%d %d\n", xlate <narrow_t> (0x12345).low, xlate <narrow_t> (0x12345).half);
	exit(0);
}
