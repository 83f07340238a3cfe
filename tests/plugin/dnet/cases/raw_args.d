/*
 * The native arguments (raw payload, its length, 0/1 for a 32/64-bit
 * process, the version) and the fields each version of the allocation tick
 * has: v2 has no Address, v4 is newer than the manifest and reads as v3.
 */
dnet:::allocate-tick
{
	printf("v%d %d-bit len %d: %s id 0x%x addr 0x%x, first 4 bytes %d\n", arg3, arg2 ? 64 : 32, arg1,
	    args[0]->gc_typename, args[0]->gc_typeid, args[0]->gc_addr, *(uint32_t *)copyin(arg0, 4));
}

dnet:::method-load
{
	printf("%s.%s at 0x%x, %d bytes\n", args[0]->clr_methnamespace, args[0]->clr_methname,
	    args[0]->clr_methstart, args[0]->clr_methsize);
}
