/* args[] needs an integer index. */
BEGIN
{
	trace(args["x"]);
}
