/*
 * <provider-name>:::events: arg0 id, arg1 opcode, arg2 payload, arg3 its
 * length; 4 bytes before the payload: u16 id, u8 version, u8 64-bit logger.
 * Builtins from the record, execname and ppid from the process rundown.
 * (Not cpu: the host folds trace CPUs onto its own for now.)
 */
microsoft-windows-dotnetruntime:::events
{
	printf("id %d opcode %d len %d value %d | prefix id %d version %d 64-bit %d | %s pid %d ppid %d tid %d\n",
	    arg0, arg1, arg3, *(uint32_t *)copyin(arg2, 4), *(uint16_t *)copyin(arg2 - 4, 2),
	    *(uint8_t *)copyin(arg2 - 2, 1), *(uint8_t *)copyin(arg2 - 1, 1), execname, pid, ppid, tid);
}

fixture.provider:::events
{
	printf("%s says %s\n", execname, copyinstr(arg2));
}
