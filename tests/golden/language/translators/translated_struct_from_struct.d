/*
 * A translator whose input is a struct variable reads its members; the
 * copy made by assigning the translation leaves the untranslated member 0.
 */
#pragma D option quiet

struct raw {
	int count;
	char kind;
};

struct cooked {
	int total;
	char kind;
};

translator struct cooked < struct raw r > {
	total = r.count * 10;
};

struct raw in;
struct cooked out;

BEGIN
{
	in.count = 10;
	in.kind = 'z';
	out = xlate<struct cooked>(in);
	printf("%d %d %d\n", out.total, out.kind, xlate<struct cooked *>(in)->total);
	exit(0);
}
