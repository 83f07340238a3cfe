/*
 * io:::start fires for the DiskIo Init events, which name the IRP alone:
 * its size, offset, disk and file come from the completion of that IRP
 * later in the trace (an IRP used again pairs with its next completion);
 * a start the trace never completes keeps them unknown.
 */
io:::start,
io:::done
{
	printf("%-5s irp 0x%x %s %d bytes at block %d on %s: %s\n", probename, (uintptr_t)args[0]->b_addr,
	    args[0]->b_flags & B_READ ? "R" : "W", args[0]->b_bcount, args[0]->b_blkno, args[1]->dev_statname,
	    args[2]->fi_pathname);
}

io:::start
{
	start[(uintptr_t)args[0]->b_addr] = args[0]->b_bcount;
}

io:::done
/start[(uintptr_t)args[0]->b_addr] != args[0]->b_bcount/
{
	printf("start and done of irp 0x%x differ\n", (uintptr_t)args[0]->b_addr);
}
