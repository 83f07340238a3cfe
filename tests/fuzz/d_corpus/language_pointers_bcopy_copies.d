/* bcopy() copies bytes into scratch memory. */
#pragma D option quiet

BEGIN
{
	src = (char *)alloca(4);
	src[0] = 'o';
	src[1] = 'k';
	dst = (char *)alloca(4);
	bcopy(src, dst, 3);
	printf("%s\n", stringof(dst));
	exit(0);
}
