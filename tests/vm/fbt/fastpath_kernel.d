/*
 * Clauses of every kind the in-kernel fast path takes at fbt probes, and one
 * it leaves in user space (a load from kernel memory): run with the fast path
 * on and off (tests/vm/run_vm_tests.sh), the same output. The workload is
 * fastpath_workload.sh (dd, then busybox).
 */
fbt::vfs_read:entry
/execname == "dd" && arg2 == 12345/
{
	@reads[probefunc, execname, arg2] = count();
	@bytes = sum(arg2);
	@sizes = quantize(arg2);
	self->size = arg2;
}

fbt::vfs_read:return
/self->size/
{
	printf("%s returned %d (%d), arg0 known: %d, asked %d\n", probefunc, arg1, args[1], arg0 != 0, self->size);
	self->size = 0;
}

fbt::do_sys_openat2:entry
/execname == "busybox"/
{
	@opened[copyinstr(arg1)] = count();
}

fbt::vfs_write:entry
/execname == "dd" && arg2 == 12345/
{
	@written[stringof(args[0]->f_path.dentry->d_name.name)] = count();
}
