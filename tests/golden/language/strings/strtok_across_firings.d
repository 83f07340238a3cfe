/*
 * strtok(NULL, ...) continues the string of an earlier call in the same
 * firing only: in a later firing, or after the last token, DTrace's saved
 * pointer is NULL and reading it faults at address 0.
 */
#pragma D option quiet

int n;

tick-1ms
/n == 0/
{
	printf("[%s]", strtok("x y", " "));
}

tick-1ms
/n == 0/
{
	printf("[%s]", strtok(NULL, " "));
	printf("[%s]\n", strtok(NULL, " ") == NULL ? "NULL" : "token");
}

tick-1ms
/n == 1/
{
	printf("never printed: %s\n", strtok(NULL, " "));
}

tick-1ms
/n++ == 1/
{
	exit(0);
}
