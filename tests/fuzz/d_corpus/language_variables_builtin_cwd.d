/* cwd is the firing process's working directory. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", cwd == "/");
	exit(0);
}
