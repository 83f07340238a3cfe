/* Every record of every header kind fires diag:::events: provider, id, opcode, payload length. */
diag:::events
{
	@[stringof(copyinstr(arg0)), arg1, arg2, arg3] = count();
}
