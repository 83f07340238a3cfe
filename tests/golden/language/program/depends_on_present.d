/* A dependency on a provider that is loaded is satisfied. */
#pragma D option quiet
#pragma D depends_on provider profile

BEGIN
{
	printf("ran\n");
	exit(0);
}
