#!/usr/sbin/dtrace -q -x specsize=64 -s
/*
 * Records that do not fit the speculative buffer (specsize) are speculative
 * drops; those that fit are still committed.
 */
BEGIN
{
	spec = speculation();
}

BEGIN
{
	speculate(spec);
	printf("%d\n", 1);
}

BEGIN
{
	speculate(spec);
	printf("%d\n", 2);
}

BEGIN
{
	speculate(spec);
	printf("%d\n", 3);
}

BEGIN
{
	commit(spec);
}

BEGIN
{
	exit(0);
}
