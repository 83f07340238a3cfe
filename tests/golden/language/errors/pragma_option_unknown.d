/* An unknown option in a pragma: D_PRAGMA_OPTSET at the pragma's line. */
#pragma D option quiet
#pragma D option nosuchoption

BEGIN
{
	exit(0);
}
