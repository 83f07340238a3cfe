/* A main program may not name a library dependency. */
#pragma D depends_on library util.d

BEGIN
{
	exit(0);
}
