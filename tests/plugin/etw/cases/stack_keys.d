/*
 * Stacks logged as stack keys: each sample's StackKeyKernel/StackKeyUser
 * name keys whose frames the file defines later (a KeyDelete, the rundown);
 * key 0xa stands for one stack before its KeyDelete and another after.
 */
sampled:::profile
{
	printf("sample at %d: pid %d tid %d, %d kernel frames, %d user frames\n", timestamp, pid, tid, stackdepth,
	    ustackdepth);
	stack();
	ustack();
}
