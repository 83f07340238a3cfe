/*
 * etw probes: arg0 is the EVENT_HEADER (0x50 bytes: id at 0x28, level at
 * 0x2c, keyword at 0x30) followed by the payload; arg1 is their size. A
 * level/keyword function field filters as an ETW session would; events of
 * level 0 or keyword 0 (kernel and classic events) pass any filter.
 */
etw:e13c0d23-ccbc-4e12-931b-d9cc2eee27e4:0xff_0xffffffffffffffff:10
{
	printf("AllocationTick: size %d level %d keyword %x amount %d\n", arg1, *(uint8_t *)copyin(arg0 + 0x2c, 1),
	    *(uint64_t *)copyin(arg0 + 0x30, 8), *(uint32_t *)copyin(arg0 + 0x50, 4));
}

etw:e13c0d23-ccbc-4e12-931b-d9cc2eee27e4:0x04_0x0000000000000001:generic_event
{
	printf("informational GC event %d\n", *(uint16_t *)copyin(arg0 + 0x28, 2));
}

etw:*:0x05_0x0000000000008000:generic_event
{
	printf("verbose exception-keyword event of %s, id %d\n", probemod, *(uint16_t *)copyin(arg0 + 0x28, 2));
}

/* Only the listed probes: a wildcard function field would also match the filtered probes above. */
etw::0xff_0xffffffffffffffff:generic_event
{
	@[probemod] = count();
}
