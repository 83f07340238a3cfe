BEGIN
{
	@[stack(arg0)] = count();
}
