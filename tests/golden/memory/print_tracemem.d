/* print() of typed values (structs member by member, nested structs, arrays,
   pointers, bit-fields, enums, strings, characters) and tracemem() with and
   without its dynamic size. */
struct inner { int x; char c; };
struct point { int a; short b; char tag[4]; struct inner in; int arr[3]; char *p; unsigned int bits : 3; long l; };
enum color { RED, GREEN = 5, BLUE };
struct point pt;
enum color col;
BEGIN
{
	pt.a = 1; pt.b = -2; pt.in.x = 7; pt.in.c = 'z';
	pt.bits = 5; pt.l = 0x1234;
	print(pt);
	print(42);
	print("foo");
	col = GREEN;
	print(col);
	print((char)65);
	tracemem(&pt.a, 16);
	tracemem(&pt.a, 16, 5);
	exit(0);
}
