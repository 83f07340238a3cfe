/* A module no probe names is missing. */
#pragma D depends_on module nosuch

BEGIN
{
	exit(0);
}
