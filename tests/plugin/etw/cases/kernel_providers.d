sched:::off-cpu
{
	printf("off-cpu: tid %d (%s, state %d %c, wait reason %d) for tid %d pri %d of %s, cpu %d\n", tid,
	    execname, curlwpsinfo->pr_state, curlwpsinfo->pr_sname, curlwpsinfo->pr_waitr, args[0]->pr_lwpid,
	    args[0]->pr_pri, args[1]->pr_fname, cpu);
}

sched:::on-cpu
{
	printf("on-cpu: tid %d of %s, waited %d\n", tid, execname, curlwpsinfo->pr_waittm);
}

sched:::wakeup
{
	printf("wakeup: tid %d wakes tid %d of %s\n", tid, args[0]->pr_lwpid, args[1]->pr_fname);
}

fsinfo:::
{
	printf("fsinfo:::%s tid %d %s: name %s dir %s offset %d bytes %d irp 0x%x cflags 0x%x oflags %d status %d extinfo %d\n",
	    probename, tid, execname, args[0]->fi_name, args[0]->fi_dirname, args[0]->fi_offset,
	    args[0]->fi_bcount, (uintptr_t)args[0]->fi_irp, args[0]->fi_cflags, args[0]->fi_oflags,
	    args[0]->fi_rstatus, args[0]->fi_extinfo);
}

io:::start,
io:::done
{
	printf("io:::%s tid %d %s: flags 0x%x %s%s bytes %d block %d irp 0x%x resp %d ns, %s %s, file %s\n",
	    probename, tid, execname, args[0]->b_flags, args[0]->b_flags & B_READ ? "R" : "",
	    args[0]->b_flags & B_WRITE ? "W" : "", args[0]->b_bcount, args[0]->b_blkno, (uintptr_t)args[0]->b_addr,
	    args[0]->resp, args[1]->dev_statname, args[1]->dev_pathname, args[2]->fi_pathname);
}

reg:::open
{
	printf("reg:::open %s: %s status %d\n", execname, args[0]->r_rname, args[0]->r_status);
}

tcpip:::send
{
	printf("tcpip:::send %s pid %d: IPv%d %s:%d -> %s:%d, %d bytes, seq %d\n", execname, pid,
	    args[0]->ip_ver, args[0]->ip_saddr, args[1]->tcp_sport, args[0]->ip_daddr, args[1]->tcp_dport,
	    args[0]->ip_plength, args[1]->tcp_seq);
}

udpip:::receive
{
	printf("udpip:::receive %s pid %d: IPv%d %s:%d -> %s:%d, %d bytes\n", execname, pid, args[1]->ip_ver,
	    args[1]->ip_saddr, args[0]->udp_sport, args[1]->ip_daddr, args[0]->udp_dport, args[0]->udp_length);
}

pf:::hardflt
{
	printf("pf:::hardflt tid %d %s: va 0x%x of %s at %d, %d bytes, %d ns before\n", tid, execname, args[1],
	    copyinstr(arg0), args[3], args[5], timestamp - args[2]);
}

pf:::dzero_flt
{
	printf("pf:::dzero_flt %s: va 0x%x pc 0x%x\n", execname, args[0], args[1]);
}

sampled:::profile
{
	printf("sampled:::profile tid %d %s: kernel pc 0x%x user pc 0x%x\n", tid, execname, arg0, arg1);
}

dpc:::dpc
{
	printf("dpc:::dpc routine 0x%x for %d ns\n", args[1], timestamp - args[0]);
}

isr:::isr
{
	printf("isr:::isr routine 0x%x vector 0x%x returned %d for %d ns\n", args[1], args[3], args[2],
	    timestamp - args[0]);
}

syscall:::entry
{
	printf("syscall:::entry 0x%x\n", args[0]);
}

syscall:::return
{
	printf("syscall:::return 0x%x\n", args[0]);
}
