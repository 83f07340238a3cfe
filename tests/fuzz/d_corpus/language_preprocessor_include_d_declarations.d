/* A header may hold D declarations. */
#pragma D option quiet

#include "include/types.h"

BEGIN
{
	printf("%d\n", sizeof (struct from_header));
	exit(0);
}
