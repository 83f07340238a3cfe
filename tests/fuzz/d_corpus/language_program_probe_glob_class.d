/* A glob with a character class. */
#pragma D option quiet

dtrace:::[B]EGIN
{
	printf("%s\n", probename);
	exit(0);
}
