/* An associative array of strings. */
#pragma D option quiet

BEGIN
{
	n[1] = "one";
	n[2] = "two";
	printf("%s %s [%s]\n", n[1], n[2], n[3]);
	exit(0);
}
