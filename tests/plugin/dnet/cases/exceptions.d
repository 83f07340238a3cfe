/* The exceptions thrown, type and message (issue 15). */
dnet:::excp
{
	printf("%s: %s (0x%x)\n", args[0]->clr_excep, args[0]->clr_excepmsg, args[0]->clr_res);
}
