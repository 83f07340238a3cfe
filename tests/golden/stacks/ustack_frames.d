BEGIN
{
	ustack(-3);
}
