/* -xcpppath naming no program. */
#pragma D option quiet

BEGIN
{
}
