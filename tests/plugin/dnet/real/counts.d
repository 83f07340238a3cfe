/* How often each dnet probe fires. */
dnet:::
{
	@[probemod, probename] = count();
}
