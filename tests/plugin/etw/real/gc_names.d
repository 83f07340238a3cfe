/*
 * With ClrEtwAll.man, the runtime's events are probes by the manifest's
 * names, under the provider's name as Windows spells it. PerfView's
 * baseline (gcevents.baseline.txt) counts, by task/opcode: GC/AllocationTick
 * 12, GC/CreateSegment 7, GC/Start 2, GC/Stop 2, GC/RestartEEStart 2,
 * GC/SuspendEEStart 2, GC/Triggered 2, GC/FinalizersStart 3 ... The trace's
 * AllocationTick events are version 4, which the manifest does not
 * describe: GCAllocationTick_V3, its latest, decodes them (AllocationAmount
 * first; gc_allocations.d lists the twelve amounts). Keyword probes take
 * the manifest's keyword names.
 */
etw:Microsoft-Windows-DotNETRuntime::GC*
{
	@[probename] = count();
}

etw:Microsoft-Windows-DotNETRuntime::GCAllocationTick_V3
{
	@amount = sum(args[0]);
}

Microsoft-Windows-DotNETRuntime:::GCKeyword
{
	@keyword = count();
}

END
{
	printa(@);
	printa("AllocationAmount sum %@d\n", @amount);
	printa("GCKeyword events %@d\n", @keyword);
}
