/* sym() and func() name the function (no offset), mod() the module; usym(),
   ufunc(), umod() and uaddr() do the same for addresses of the firing's
   process, uaddr() with the offset. Each record prints as "  %-50s";
   unknown addresses as 0x and hex digits. */
stacks:test:deep:fire
/i++ == 0/
{
	sym(arg0); sym(arg1); sym(arg2); sym(arg3); printf("|\n");
	func(arg0); printf("|\n");
	mod(arg0); mod(arg2); mod(arg3); printf("|\n");
	usym(arg4); usym(arg5); usym(arg6); usym(arg7); printf("|\n");
	ufunc(arg4); printf("|\n");
	umod(arg4); umod(arg6); umod(arg7); printf("|\n");
	uaddr(arg4); uaddr(arg5); uaddr(arg6); uaddr(arg7); printf("|\n");
}

stacks:test:empty:fire
{
	exit(0);
}
