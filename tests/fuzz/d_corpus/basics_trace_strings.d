BEGIN
{
	trace("hello");
	trace(probeprov);
	trace(probename);
}

BEGIN
{
	exit(0);
}
