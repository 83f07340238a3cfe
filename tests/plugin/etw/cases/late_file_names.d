/*
 * Disk I/O names its file from the FileIo events before it, else from the
 * first one after it (the rundown at the end of the file), else <unknown>.
 */
io:::done
{
	printf("%s %s %d bytes\n", execname, args[2]->fi_pathname, args[0]->b_bcount);
}
