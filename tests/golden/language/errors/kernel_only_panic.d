/* panic() and breakpoint() act on the kernel: not available here, and the
   message says so (they read nothing). */
BEGIN
{
	panic();
}
