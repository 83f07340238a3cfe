/* printa() of an aggregation trunc() emptied prints only its newline. */
#pragma D option quiet

BEGIN
{
	@a[1] = count();
	trunc(@a);
	printa(@a);
	printf("end\n");
	exit(0);
}
