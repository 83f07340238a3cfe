/* With -q nothing ends a struct print()'s last line. */
#pragma D option quiet
struct pair { int first; unsigned char second; };
struct pair p;
BEGIN
{
	p.first = -1;
	p.second = 200;
	print(p);
	printf("|\n");
	print(p.first);
	exit(0);
}
