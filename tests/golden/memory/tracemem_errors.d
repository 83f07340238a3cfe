BEGIN
{
	tracemem(arg0, 0);
}
