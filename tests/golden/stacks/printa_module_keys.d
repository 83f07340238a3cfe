/* %a and %A of mod() and umod() keys print the module, with the
   conversion's width and flags (DTrace's dt_printf_format prints these
   records with its module printer whatever the address conversion);
   an address no module holds prints as itself. */
stacks:test:deep:fire
/i++ == 0/
{
	@m[mod(arg0), umod(arg4)] = count();
	@m[mod(arg2), umod(arg6)] = count();
	@m[mod(arg3), umod(arg7)] = count();
}

stacks:test:empty:fire
{
	printa("[%a] [%-12A] %@d\n", @m);
	printa("[%20a] [%A] %@d\n", @m);
	exit(0);
}
