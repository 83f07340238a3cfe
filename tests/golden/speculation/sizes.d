#!/usr/sbin/dtrace -q -x nspec=3 -x specsize=64 -s
/*
 * Speculative buffers of specsize bytes: each speculation keeps what fits
 * (here two records of the 64 bytes, with DTrace's 24-byte records as with ours) and counts the rest as speculative
 * drops; a discarded speculation's records, and its drops, are forgotten;
 * every speculation is free again after its commit or discard.
 */
BEGIN
{
	a = speculation();
	b = speculation();
	c = speculation();
	printf("%d %d %d %d\n", a, b, c, speculation());
}

BEGIN
{
	speculate(a);
	printf("a%d\n", 1);
}

BEGIN
{
	speculate(a);
	printf("a%d\n", 2);
}

BEGIN
{
	speculate(a);
	printf("a%d\n", 3);
}

BEGIN
{
	speculate(b);
	printf("b%d\n", 1);
}

BEGIN
{
	speculate(b);
	printf("b%d\n", 2);
}

BEGIN
{
	speculate(b);
	printf("b%d\n", 3);
}

BEGIN
{
	commit(a);
}

BEGIN
{
	discard(b);
}

BEGIN
{
	commit(c);
}

BEGIN
{
	printf("%d %d %d\n", speculation(), speculation(), speculation());
	exit(0);
}
