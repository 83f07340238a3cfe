/* Every event of the file, by provider (diag:::events' arg0): the totals
   equal the independent walker's count (tests/unit/nettrace). */
diag:::events
{
	@[stringof(copyinstr(arg0))] = count();
	n++;
}

END
{
	printf("%d events\n", n);
}
