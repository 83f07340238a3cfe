#pragma D option quiet

/* profile-N fires on every CPU; this machine kind has two. */
profile-100
{
	seen[cpu] = 1;
}

tick-300ms
{
	printf("cpu0 %d cpu1 %d\n", seen[0], seen[1]);
	exit(0);
}
