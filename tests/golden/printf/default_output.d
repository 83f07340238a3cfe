/* Without -q, printf output follows the probe line. */
BEGIN
{
	printf("value %d", 3);
	exit(0);
}
