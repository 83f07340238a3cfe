/* Lines after an #include keep their own numbers. */
#pragma D option quiet

#include "include/answer.h"

BEGIN
{
	trace(nosuch);
}
