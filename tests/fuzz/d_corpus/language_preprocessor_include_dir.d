/* -I adds a directory searched by #include <...>. */
#pragma D option quiet

#include <answer.h>

BEGIN
{
	printf("%d\n", HEADER_ANSWER);
	exit(0);
}
