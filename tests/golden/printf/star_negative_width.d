/* A negative * width means left-justified, as in C. */
#pragma D option quiet

BEGIN
{
	w = -6;
	printf("[%*d]\n", w, 42);
	exit(0);
}
