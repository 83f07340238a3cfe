/* exit() stops the replay: no event after the third, then END. */
int n;

diag:::events
{
	n++;
	printf("%d %s\n", n, stringof(copyinstr(arg0)));
}

diag:::events
/n == 3/
{
	exit(0);
}

END
{
	printf("end after %d\n", n);
}
