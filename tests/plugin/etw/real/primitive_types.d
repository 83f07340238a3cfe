/*
 * TraceLogging fields decoded with each event's schema; PerfView's baseline
 * (primitive-types.baseline.txt) shows the same values (int64_type is logged
 * as a UInt64 by that test program, hence the cast).
 */
etw:::PrimitiveTypesTest
{
	printf("%s boolean %d char %c int16 %d int32 %d uint16 %d uint32 %d int64 %d\n", copyinstr(args[0]), args[1],
	    args[2], args[3], args[4], args[5], args[6], (int64_t)args[7]);
}
