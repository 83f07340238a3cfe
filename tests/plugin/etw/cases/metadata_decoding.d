/*
 * No manifest is registered: the trace describes its events itself, with
 * TRACE_EVENT_INFO and EVENT_MAP_INFO records (after the events) and an
 * EventSource manifest logged in two chunks.
 */
etw:7a1b2c3d-4e5f-4a6b-8c7d-9e0f1a2b3c4d::7
{
	this->points = (int16_t *)copyin(args[1], 4 * sizeof (int16_t));
	printf("%s: Count %d, Points (%d,%d) (%d,%d), Shape %s, Flags %s, Label %s\n", probeprov, args[0],
	    this->points[0], this->points[1], this->points[2], this->points[3], copyinstr(args[2]),
	    copyinstr(args[3]), copyinstr(args[4]));
}

etw:1d2c3b4a-5f6e-4d7c-8b9a-0a1b2c3d4e5f::1
{
	printf("Fixture.Source: Message %s, Level %s\n", copyinstr(args[0]), copyinstr(args[1]));
}

fixture.source:::events,
fixture-described:::events
{
	@[probeprov, arg0] = count();
}
