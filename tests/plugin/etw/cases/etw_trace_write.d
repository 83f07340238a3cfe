/*
 * etw_trace() writes TraceLogging events to the file -x etwtrace names:
 * provider, GUID, event name, level, keyword, then (type, name, value) per
 * field. etw_trace_read.d reads them back.
 */
BEGIN
{
	etw_trace("Fixture.Writer", "5f1c3a2b-0d4e-4f60-8a7b-9c0d1e2f3a4b", "Greeting", 4, 0x10,
	    "string", "Text", "hello", "int32", "Count", -7, "uint64", "Big", 0x123456789ab,
	    "wstring", "Wide", "wide text", "bool", "Flag", 2);
	etw_trace("Fixture.Writer", "5f1c3a2b-0d4e-4f60-8a7b-9c0d1e2f3a4b", "Tick", 5, 0x20,
	    "uint16", "Number", 65537);
	exit(0);
}
