/*
 * GC/AllocationTick (id 10) from the raw payload: u32 AllocationAmount first.
 * PerfView's baseline (gcevents.baseline.txt) lists the first five: 109,120
 * 109,440 110,496 ... in pid 179596, tid 168672; and counts 12 of them.
 */
etw:e13c0d23-ccbc-4e12-931b-d9cc2eee27e4::10
{
	printf("pid %d tid %d amount %d\n", pid, tid, *(uint32_t *)copyin(arg0 + 0x50, 4));
}

microsoft-windows-dotnetruntime:::events
{
	@[arg0] = count();
}
