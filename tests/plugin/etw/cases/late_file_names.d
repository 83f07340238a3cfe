/*
 * Disk I/O names its file from the FileIo events before it, else from the
 * first one after it (the rundown at the end of the file), else <unknown>;
 * the path has the drive letter of the trace's volume mapping (also at the
 * end), and fi_ntpath keeps the path as the trace gives it.
 */
io:::done
{
	printf("%s %s (%s; %s in %s on %s) %d bytes\n", execname, args[2]->fi_pathname, args[2]->fi_ntpath,
	    args[2]->fi_name, args[2]->fi_dirname, args[2]->fi_mount, args[0]->b_bcount);
}
