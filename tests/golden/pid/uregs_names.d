/* uregs[] indices by Oracle's R_* names (x86-64), declared by the live plugins. */
#pragma D option quiet
BEGIN
{
	printf("%d %d %d %d %d %d %d %d\n", R_R15, R_RAX, R_RDI, R_RIP, R_RSP, R_EBX, R_EAX, R_PC);
	exit(0);
}
