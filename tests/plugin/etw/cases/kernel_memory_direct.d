/*
 * A replay's kernel pointers are read directly, as DTrace reads kernel
 * memory: stringof() and * on the module name, -> on the translated records,
 * and string comparison, without copyin().
 */
proc:::module-load
{
	printf("%s first %c, %s\n", stringof(args[0]), *(char *)arg0,
	    stringof(args[0]) == copyinstr(arg0) ? "same as copyinstr" : "differs");
}

proc:::create
{
	printf("create %s ppid %d\n", stringof(args[0]->pr_fname), args[0]->pr_ppid);
}
