/* An error in an included header names the header and its line. */
#pragma D option quiet

#include "include/broken.h"

BEGIN
{
}
