/* A dependency on a provider that is not loaded fails the program. */
#pragma D depends_on provider nosuch

BEGIN
{
	exit(0);
}
