/* #include "file" reads a header beside the script. */
#pragma D option quiet

#include "include/answer.h"

BEGIN
{
	printf("%d\n", HEADER_ANSWER);
	exit(0);
}
