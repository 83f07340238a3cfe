/* -xcpppath picks the preprocessor that runs. */
#pragma D option quiet

BEGIN
{
	printf("%d\n", FROM_WRAPPER);
	exit(0);
}
