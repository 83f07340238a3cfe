/*
 * cleanpath() of relative paths whose ".." climbs past the start: DTrace
 * backs its output up to the buffer's first byte and keeps that byte, so
 * "a/../.." gives "a" and "ab/../../c/.." gives "/". A path that never wrote
 * the first byte ("/..") gives what the fresh buffer holds there: nothing.
 */
#pragma D option quiet

BEGIN
{
	printf("[%s]\n", cleanpath("a/../.."));
	printf("[%s]\n", cleanpath("a/.."));
	printf("[%s]\n", cleanpath("../a"));
	printf("[%s]\n", cleanpath("/.."));
	printf("[%s]\n", cleanpath("/../.."));
	printf("[%s]\n", cleanpath("//a//b/./c/"));
	printf("[%s]\n", cleanpath(""));
	printf("[%s]\n", cleanpath("ab/../../c/.."));
	printf("[%s]\n", cleanpath("x/y/../../.."));
	printf("[%s]\n", cleanpath("/a/b/.."));
	exit(0);
}
