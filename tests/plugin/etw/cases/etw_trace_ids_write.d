/*
 * etw_trace() from replayed events: each written event carries the pid and
 * tid of the event whose clause wrote it (etw_trace_ids_read.d reads them).
 */
etw:e13c0d23-ccbc-4e12-931b-d9cc2eee27e4::10
{
	etw_trace("Fixture.Ids", "6a2b3c4d-0d4e-4f60-8a7b-9c0d1e2f3a4b", "Seen", 4, 0, "int64", "Pid", pid,
	    "int64", "Tid", tid);
}
