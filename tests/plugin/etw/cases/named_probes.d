/*
 * With the provider's manifest (named.man), its events are probes by their
 * names (Start is id 1 version 0, Start_V1 version 1), its keywords probes
 * by the manifest's keyword names, and the provider's name matches in any
 * case, in the etw module field as in the provider field. args[] reaches
 * every field of Start_V1 (twelve, more than arg0..arg9 hold).
 */
etw:Fixture-Named::Start
{
	printf("%s:%s: Count %d Name %s\n", probemod, probename, args[0], copyinstr(args[1]));
}

etw:fixture-named::Start_V1
{
	printf("%s:%s: F0 %d F7 %d F8 %d F11 %d\n", probemod, probename, args[0], args[7], args[8], args[11]);
}

etw:5E1F0A2B-3C4D-4E5F-8A9B-0C1D2E3F4A5B::Stop
{
	printf("%s:%s\n", probemod, probename);
}

Fixture-Named:::ReadKeyword,
fixture-named:::WriteKeyword
{
	printf("%s:::%s id %d\n", probeprov, probename, arg0);
}

FIXTURE-NAMED:::events,
fixture-named:::events
{
	@[probeprov] = count();
}
