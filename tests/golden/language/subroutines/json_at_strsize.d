#!/usr/sbin/dtrace -q -x strsize=48 -s
/*
 * json() reads at most strsize bytes of the document: a value beyond them
 * is not found, one within them is; results are cut at strsize too.
 */
BEGIN
{
	printf("[%s]\n", json("{\"a\": \"0123456789\", \"b\": \"abcdefghijklmnopqrstuvwxyz\"}", "a"));
	printf("[%s]\n", json("{\"a\": \"0123456789\", \"b\": \"abcdefghijklmnopqrstuvwxyz\"}", "b") == NULL ? "NULL" : "found");
	exit(0);
}
