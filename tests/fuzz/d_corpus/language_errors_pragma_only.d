/* An empty program: only a pragma. */
#pragma D option quiet
