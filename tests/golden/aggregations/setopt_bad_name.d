#pragma D option quiet

BEGIN
{
	setopt("nosuchoption", "1");
	exit(0);
}
