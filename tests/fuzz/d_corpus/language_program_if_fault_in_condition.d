/* A fault in the condition stops the whole clause. */
#pragma D option quiet

BEGIN
{
	if (*(int *)0)
		printf("then\n");
	else
		printf("else\n");
	printf("after\n");
}

BEGIN
{
	exit(0);
}
