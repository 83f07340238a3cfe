/* if in a clause that fires many times: each firing decides anew. */
#pragma D option quiet

tick-1ms
{
	n++;
	if (n % 2)
		odd++;
	else
		even++;
}

tick-1ms
/n == 6/
{
	printf("%d %d\n", odd, even);
	exit(0);
}
