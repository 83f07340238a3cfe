/*
 * memref() (FreeBSD's): a two-word block naming memory, its address then
 * its length.
 */
#pragma D option quiet

BEGIN
{
	this->b = (char *)alloca(8);
	this->m = memref(this->b, 7);
	printf("%d %d\n", this->m[1], this->m[0] == (uintptr_t)this->b);
	exit(0);
}
