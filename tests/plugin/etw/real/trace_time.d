/* tick-N fires on trace time: this trace's header precedes its events by 8 hours. */
int n;

diag:::events
{
	n++;
}

tick-1h
{
	printf("%d records in the hour before %d\n", n, timestamp);
	n = 0;
}

END
{
	printf("%d records after the last tick\n", n);
}
