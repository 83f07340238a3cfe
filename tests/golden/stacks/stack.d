/* stack() in the default output: the probe line, then the frames on lines of
   their own indented by 14, then the blank line that ends the firing. Known
   frames read module`function+0xoffset (no offset at the first byte), a
   module without functions module`0xaddress, an unknown address 0xaddress. */
stacks:test:deep:fire
/i++ == 0/
{
	stack();
}

stacks:test:shallow:fire
{
	stack(1);
	trace(1);
}

stacks:test:empty:fire
{
	stack();
	exit(0);
}
