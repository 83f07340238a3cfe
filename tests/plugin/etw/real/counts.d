int n;

/* Every record of the file, by provider (diag:::events' arg0). */
diag:::events
{
	@[stringof(copyinstr(arg0))] = count();
}

END
{
	printf("%d records\n", n);
}

diag:::events
{
	n++;
}
