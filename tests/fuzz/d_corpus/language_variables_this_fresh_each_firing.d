/* A clause-local set in one firing is not seen by the next. */
#pragma D option quiet

tick-1ms
/n++ == 0/
{
	this->x = 7;
}

tick-1ms
/n == 3/
{
	printf("%d\n", this->x);
	exit(0);
}
