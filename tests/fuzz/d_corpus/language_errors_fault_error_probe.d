/* A fault fires dtrace:::ERROR with the fault in arg4 and the address in arg5. */
#pragma D option quiet

BEGIN
{
	trace(*(int *)8);
}

ERROR
{
	printf("fault %d addr %x\n", arg4, arg5);
	exit(0);
}
