/*
 * GC/CreateSegment (id 5) with ClrEtwAll.man: Type has a value map, read as
 * its name (gcevents.baseline.txt: SmallObjectHeap, LargeObjectHeap; this
 * manifest's map has no name for 3, which newer ones call PinnedObjectHeap).
 */
etw:e13c0d23-ccbc-4e12-931b-d9cc2eee27e4::5
{
	printf("Address=0x%x; Size=0x%08x; Type=%s; ClrInstanceID=%d\n", args[0], args[1], copyinstr(args[2]),
	    args[3]);
}

/* RuntimeInformationStart (id 187): Sku has a value map too. */
etw:e13c0d23-ccbc-4e12-931b-d9cc2eee27e4::187
{
	printf("ClrInstanceID=%d; Sku=%s\n", args[0], copyinstr(args[1]));
}
