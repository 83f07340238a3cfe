BEGIN
{
	trace("before");
}

BEGIN
{
	setopt("quiet");
	trace("probe line printed, no newline after");
}

BEGIN
{
	trace("after\n");
	exit(0);
}
