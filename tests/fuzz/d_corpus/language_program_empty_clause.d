/* A clause with no actions traces the probe (the default action). */
BEGIN
{
}

BEGIN
{
	exit(0);
}
