BEGIN
{
	print(exit(0));
}
