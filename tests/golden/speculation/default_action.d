/*
 * A clause with speculate() and no data-recording action speculatively
 * records its probe: the probe line prints when committed (here at END,
 * after the END clause that comes first).
 */
BEGIN
{
	self->spec = speculation();
}

BEGIN
{
	speculate(self->spec);
}

BEGIN
{
	exit(0);
}

END
{
	trace("end");
}

END
{
	commit(self->spec);
}
