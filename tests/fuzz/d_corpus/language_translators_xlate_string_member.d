/* A translator member of type string. */
#pragma D option quiet

typedef struct named { string name; } named_t;
translator named_t < int x > { name = x > 0 ? "positive" : "other"; };

BEGIN
{
	printf("%s\n", xlate<named_t *>(3)->name);
	exit(0);
}
