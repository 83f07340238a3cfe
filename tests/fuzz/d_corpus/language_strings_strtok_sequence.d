/* strtok() continues from where it stopped when given NULL. */
#pragma D option quiet

BEGIN
{
	printf("%s\n", strtok("a,b;c", ",;"));
	printf("%s\n", strtok(NULL, ",;"));
	printf("%s\n", strtok(NULL, ",;"));
	exit(0);
}
