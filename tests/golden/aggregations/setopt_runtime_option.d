/* Options fixed once tracing has started cannot be set by setopt(). */
#pragma D option quiet

BEGIN
{
	setopt("bufsize", "1m");
	printf("still running\n");
	exit(0);
}
