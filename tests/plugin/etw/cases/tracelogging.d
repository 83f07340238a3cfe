/*
 * A TraceLogging event's probe is named by the event (etw:<guid>::Greeting)
 * and typed from its own schema: args[0] text, args[1] count, args[2] the
 * values (a u16 array), args[3] the GUID's 16 bytes.
 */
etw:4f50731a-89cf-4782-b3e0-dce8c90476ba::Greeting
{
	printf("%s: text %s count %d values %d %d id %x-%x\n", probename, copyinstr(args[0]), args[1],
	    *(uint16_t *)copyin(args[2], 2), *(uint16_t *)copyin(args[2] + 2, 2), *(uint32_t *)copyin(args[3], 4),
	    *(uint16_t *)copyin(args[3] + 4, 2));
}
