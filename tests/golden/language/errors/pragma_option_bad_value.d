/* A value the option refuses: the message names the value. */
#pragma D option bufsize=lots

BEGIN
{
	exit(0);
}
