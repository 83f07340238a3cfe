#pragma D option quiet

/* The same 5 ms interval spelled five ways: five probes, all firing. */
tick-5ms, tick-5000us, tick-5000000ns, tick-200hz, tick-200
{
	@[probename] = max(1);
}

tick-200ms
{
	exit(0);
}
